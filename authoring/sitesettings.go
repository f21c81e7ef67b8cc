package authoring

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/quiredocs/quire"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A site's customization (the reference's SiteCustomizationSettings) and a
// site space's overrides of it: the settings in effect, how overrides merge,
// and the check against the reference's own schema
// (schemas/site-customization.json, cut by
// scripts/site-customization-schema.py). Pure: the writes are in
// sitecustomization.go.

//go:embed schemas/site-customization.json
var customizationSchemaJSON []byte

var customizationSchema = sync.OnceValue(func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(customizationSchemaJSON))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("quire:site-customization.json", doc); err != nil {
		panic(err)
	}
	return c.MustCompile("quire:site-customization.json")
})

// DefaultCustomization is every field of Contract §2 customizations.site
// (and those the reference requires) at its default, but the title, which
// is the site's, until its customization is set: the members of a JSON
// object, without its braces.
const DefaultCustomization = `"styling":{"theme":"clean","primaryColor":{"light":"#346DDB","dark":"#346DDB"},` +
	`"tint":{"color":{"light":"#787878","dark":"#787878"}},` +
	`"infoColor":{"light":"#787878","dark":"#787878"},"successColor":{"light":"#00C950","dark":"#00D45E"},` +
	`"warningColor":{"light":"#FE9A00","dark":"#E28800"},"dangerColor":{"light":"#FB2C36","dark":"#FF6467"},` +
	`"corners":"rounded","depth":"subtle","links":"default","font":"Inter","monospaceFont":"IBMPlexMono",` +
	`"codeTheme":{"default":{"light":"default-light","dark":"default-dark"},"openapi":{"light":"default-light","dark":"default-dark"}},` +
	`"background":"plain","icons":"regular","sidebar":{"background":"default","list":"default"},"search":"subtle"},` +
	`"internationalization":{"locale":"en"},"favicon":{},` +
	`"header":{"preset":"default","links":[]},"footer":{"groups":[]},` +
	`"announcement":{"enabled":false,"message":"Announcement","style":"info"},` +
	`"themes":{"default":"system","toggeable":true},` +
	`"pdf":{"enabled":false},"feedback":{"enabled":false},"aiSearch":{"enabled":true},` +
	`"advancedCustomization":{"enabled":false},"pagination":{"enabled":true},"trademark":{"enabled":false},` +
	`"ai":{"mode":"search","pageLinkSummaries":{"enabled":false}},"git":{"showEditLink":false},` +
	`"privacyPolicy":{},"socialPreview":{},"insights":{"trackingCookie":false},` +
	`"externalLinks":{"target":"self"},"pageActions":{"items":["markdown"]},"socialAccounts":[]`

// CheckCustomization validates settings against the reference's schema; the
// error names the first field that breaks it.
func CheckCustomization(settings map[string]any) error {
	err := customizationSchema().Validate(settings)
	var ve *jsonschema.ValidationError
	if err == nil || !errors.As(err, &ve) {
		return err
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	field := strings.Join(ve.InstanceLocation, ".")
	if field == "" {
		field = "body"
	}
	msg := ve.Error()
	if _, after, ok := strings.Cut(msg, ": "); ok {
		msg = after
	}
	return quire.Errorf(quire.CodeInvalid, "%s: %s", field, msg)
}

// DecodeSettings reads a JSON object as the schema validator takes it.
func DecodeSettings(raw []byte) (map[string]any, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "body: malformed JSON")
	}
	m, ok := doc.(map[string]any)
	if !ok {
		return nil, quire.Errorf(quire.CodeInvalid, "body: must be an object")
	}
	return m, nil
}

// SiteSettings is a site's customization in effect: as set, or the
// defaults; titled with the site's title unless it sets one.
func SiteSettings(site *quire.Site) map[string]any {
	raw := site.Customization
	if raw == nil {
		raw = json.RawMessage(`{` + DefaultCustomization + `}`)
	}
	m, err := DecodeSettings(raw)
	if err != nil { // stored validated: cannot happen
		m = map[string]any{}
	}
	if _, ok := m["title"]; !ok {
		m["title"] = site.Title
	}
	return m
}

// MergeSettings returns base with over merged in, objects key by key; a
// null in over removes the key.
func MergeSettings(base, over map[string]any) map[string]any { return merge(base, over, false) }

// MergeOverrides merges a PATCH into a site space's overrides: a null drops
// the override, so the site's value applies again; objects merge key by
// key, and one left empty is dropped.
func MergeOverrides(over, patch map[string]any) map[string]any { return merge(over, patch, true) }

// merge returns base with over merged in, objects key by key, a null
// removing a key; prune drops the objects the merge leaves empty.
func merge(base, over map[string]any, prune bool) map[string]any {
	out := make(map[string]any, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		b, bok := out[k].(map[string]any)
		o, ook := v.(map[string]any)
		switch {
		case v == nil:
			delete(out, k)
		case bok && ook:
			if m := merge(b, o, prune); len(m) > 0 || !prune {
				out[k] = m
			} else {
				delete(out, k)
			}
		default:
			out[k] = v
		}
	}
	return out
}

// SiteSpaceSettings is a site space's customization in effect: the site's
// with the space's overrides over (nil when it has none).
func SiteSpaceSettings(site *quire.Site, over json.RawMessage) (map[string]any, error) {
	out := SiteSettings(site)
	if over == nil {
		return out, nil
	}
	m, err := DecodeSettings(over)
	if err != nil {
		return nil, err
	}
	return MergeSettings(out, m), nil
}

// SiteSpaceCustomizations are the customizations in effect of every site
// space of st, by site space id: the site's, with the site space's
// overrides merged in. GitBook's renderer looks a page's site space up
// there, and warns of an API out of step when it is missing.
func SiteSpaceCustomizations(site *quire.Site, st *quire.SiteStructure) map[string]json.RawMessage {
	all := st.AllSiteSpaces()
	out := make(map[string]json.RawMessage, len(all))
	base := SiteSettings(site)
	inherited, err := json.Marshal(base)
	if err != nil {
		return out // decoded from JSON: cannot happen
	}
	for _, ss := range all {
		out[ss.ID] = inherited
		if ss.Customization == nil {
			continue
		}
		over, err := DecodeSettings(ss.Customization)
		if err != nil {
			continue // validated when set: cannot happen
		}
		if b, err := json.Marshal(MergeSettings(base, over)); err == nil {
			out[ss.ID] = b
		}
	}
	return out
}
