package quire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif" // icons and preview images may be GIF, JPEG or PNG
	_ "image/jpeg"
	_ "image/png"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// What publishing an integration takes (contract §4.17): the reference's
// PublishIntegration, its checks and defaults, and how its images are read.

// Limits of a publish. The contract bounds the fields; these bound the bytes.
const (
	MaxIntegrationIconBytes    = 1 << 20 // an icon, decoded
	MaxIntegrationPreviewBytes = 2 << 20 // each preview image, decoded
	maxImageSide               = 8192    // pixels, either way
	maxScriptBytes             = 4 << 20
	maxSecrets                 = 20 // the reference's IntegrationSecrets maxProperties
	maxSecretBytes             = 8 << 10
	maxBlocks                  = 100 // blocks, and content sources
	maxURLUnfurls              = 50  // URL patterns of one block
)

// PublishIntegration is what publishing an integration takes (the
// reference's PublishIntegration), decoded from JSON. Validate checks it and
// fills its defaults.
type PublishIntegration struct {
	Runtime               *string                     `json:"runtime"`
	Icon                  *string                     `json:"icon"` // base64
	Title                 *string                     `json:"title"`
	Description           *string                     `json:"description"`
	Summary               *string                     `json:"summary"`
	PreviewImages         []string                    `json:"previewImages"` // base64
	Visibility            *string                     `json:"visibility"`
	Target                *string                     `json:"target"`
	Scopes                *[]string                   `json:"scopes"`
	Categories            []string                    `json:"categories"`
	Blocks                []IntegrationBlock          `json:"blocks"`
	ContentSources        []IntegrationContentSource  `json:"contentSources"`
	ExternalLinks         []IntegrationExternalLink   `json:"externalLinks"`
	Configurations        json.RawMessage             `json:"configurations"`
	Script                *string                     `json:"script"`
	Organization          *string                     `json:"organization"`
	Secrets               Optional[map[string]string] `json:"secrets"`
	ContentSecurityPolicy json.RawMessage             `json:"contentSecurityPolicy"`
}

// IntegrationBlock is the reference's IntegrationBlock; it is stored as
// decoded, so unknown fields are dropped.
type IntegrationBlock struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	Icon        string   `json:"icon,omitempty"`
	URLUnfurl   []string `json:"urlUnfurl,omitempty"`
	Markdown    *struct {
		Codeblock string `json:"codeblock"`
		Body      string `json:"body"`
	} `json:"markdown,omitempty"`
}

// IntegrationContentSource is the reference's IntegrationContentSource.
type IntegrationContentSource struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	Description   string `json:"description,omitempty"`
	Icon          string `json:"icon,omitempty"`
	Configuration *struct {
		ComponentID string `json:"componentId"`
	} `json:"configuration"`
}

// IntegrationExternalLink is one of an integration's external links.
type IntegrationExternalLink struct {
	URL   string `json:"url"`
	Label string `json:"label"`
}

// Validate checks every field but the images, which are decoded later
// (DecodeImage), and fills the defaults: runtime v1, target all, visibility
// private, an empty summary. Scopes and categories lose their repeats,
// configurations keep only account, space and site (nil when none), and a
// content security policy is re-encoded (nil when none).
func (b *PublishIntegration) Validate() error {
	if err := FirstError(
		CheckRequired("organization", b.Organization != nil),
		CheckRequired("title", b.Title != nil),
		CheckRequired("description", b.Description != nil),
		CheckRequired("script", b.Script != nil),
		CheckRequired("scopes", b.Scopes != nil),
	); err != nil {
		return err
	}
	if b.Summary == nil {
		b.Summary = new(string)
	}
	for _, d := range []struct {
		field, def string
		v          **string
		values     []string
	}{
		{"runtime", "v1", &b.Runtime, IntegrationRuntimes},
		{"visibility", "private", &b.Visibility, IntegrationVisibilities},
		{"target", "all", &b.Target, IntegrationTargets},
	} {
		if *d.v == nil {
			*d.v = &d.def
		} else if err := CheckOneOf(d.field, **d.v, d.values); err != nil {
			return err
		}
	}
	if err := FirstError(
		CheckLen("organization", *b.Organization, 1, 255),
		CheckLen("title", *b.Title, 2, 30),
		CheckText("description", *b.Description, 0, 100),
		CheckText("summary", *b.Summary, 0, 2048),
	); err != nil {
		return err
	}
	if *b.Script == "" {
		return Errorf(CodeInvalid, "script: must not be empty")
	}
	if len(*b.Script) > maxScriptBytes {
		return Errorf(CodeInvalid, "script: must be at most %d bytes", maxScriptBytes)
	}
	var err error
	if *b.Scopes, err = enumList("scopes", *b.Scopes, IntegrationScopes); err != nil {
		return err
	}
	if b.Categories, err = enumList("categories", b.Categories, IntegrationCategories); err != nil {
		return err
	}
	if len(b.PreviewImages) > 3 {
		return Errorf(CodeInvalid, "previewImages: at most 3 images")
	}
	if err := FirstError(checkBlocks(b.Blocks), checkSources(b.ContentSources), checkExternalLinks(b.ExternalLinks)); err != nil {
		return err
	}
	if b.Configurations, err = checkConfigurations(b.Configurations); err != nil {
		return err
	}
	if b.ContentSecurityPolicy, err = checkCSP(b.ContentSecurityPolicy); err != nil {
		return err
	}
	if b.Secrets.HasValue() {
		if len(b.Secrets.Value) > maxSecrets {
			return Errorf(CodeInvalid, "secrets: at most %d secrets", maxSecrets)
		}
		for _, k := range slices.Sorted(maps.Keys(b.Secrets.Value)) {
			v := b.Secrets.Value[k]
			if err := CheckLen("secrets", k, 1, 100); err != nil {
				return Errorf(CodeInvalid, "secrets: names must be 1 to 100 characters")
			}
			if len(v) > maxSecretBytes {
				return Errorf(CodeInvalid, "secrets.%s: must be at most %d bytes", k, maxSecretBytes)
			}
		}
	}
	return nil
}

// BlockDomains lists the domains of the blocks' URL unfurl patterns, each once.
func (b *PublishIntegration) BlockDomains() []string {
	var domains []string
	for _, bl := range b.Blocks {
		for _, p := range bl.URLUnfurl {
			if d := UnfurlDomain(p); d != "" && !slices.Contains(domains, d) {
				domains = append(domains, d)
			}
		}
	}
	return domains
}

// CheckOneOf validates that v is one of values.
func CheckOneOf(field, v string, values []string) error {
	if !slices.Contains(values, v) {
		return Errorf(CodeInvalid, "%s: must be one of %s", field, strings.Join(values, ", "))
	}
	return nil
}

// enumList checks each value of a list against an enumeration and drops
// repeats; a missing list is empty.
func enumList(field string, list, values []string) ([]string, error) {
	out := []string{}
	for i, v := range list {
		if err := CheckOneOf(fmt.Sprintf("%s[%d]", field, i), v, values); err != nil {
			return nil, err
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// checkURL validates an absolute http(s) URL of at most 2048 characters.
func checkURL(field, v string) error {
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(v) > 2048 {
		return Errorf(CodeInvalid, "%s: must be an http or https URL of at most 2048 characters", field)
	}
	return nil
}

func checkBlocks(blocks []IntegrationBlock) error {
	return checkEntries(blocks, "blocks", "block", "blocks", func(b IntegrationBlock) (id, title, description, icon string) {
		return b.ID, b.Title, b.Description, b.Icon
	}, func(at string, b IntegrationBlock) error {
		if len(b.URLUnfurl) > maxURLUnfurls {
			return Errorf(CodeInvalid, "%s.urlUnfurl: at most %d patterns", at, maxURLUnfurls)
		}
		for j, u := range b.URLUnfurl {
			if err := CheckLen(fmt.Sprintf("%s.urlUnfurl[%d]", at, j), u, 1, 2048); err != nil {
				return err
			}
		}
		if m := b.Markdown; m != nil && (m.Codeblock == "" || m.Body == "") {
			return Errorf(CodeInvalid, "%s.markdown: must have codeblock and body", at)
		}
		return nil
	})
}

func checkSources(sources []IntegrationContentSource) error {
	return checkEntries(sources, "contentSources", "content source", "content sources", func(c IntegrationContentSource) (id, title, description, icon string) {
		return c.ID, c.Title, c.Description, c.Icon
	}, func(at string, c IntegrationContentSource) error {
		if c.Configuration == nil || c.Configuration.ComponentID == "" {
			return Errorf(CodeInvalid, "%s.configuration.componentId: is required", at)
		}
		return nil
	})
}

// checkEntries checks a list of at most maxBlocks entries (blocks, content
// sources) named field: each entry's id, title, description and icon as
// head reads them, ids unique, then the rest of it with more.
func checkEntries[T any](entries []T, field, noun, nouns string, head func(T) (id, title, description, icon string), more func(at string, e T) error) error {
	if len(entries) > maxBlocks {
		return Errorf(CodeInvalid, "%s: at most %d %s", field, maxBlocks, nouns)
	}
	seen := map[string]bool{}
	for i, e := range entries {
		at := fmt.Sprintf("%s[%d]", field, i)
		id, title, description, icon := head(e)
		if err := FirstError(
			CheckLen(at+".id", id, 1, 100),
			CheckLen(at+".title", title, 2, 40),
			CheckText(at+".description", description, 0, 150),
			CheckLen(at+".icon", icon, 0, 2048),
		); err != nil {
			return err
		}
		if seen[id] {
			return Errorf(CodeInvalid, "%s.id: %q is the id of an earlier %s", at, id, noun)
		}
		seen[id] = true
		if err := more(at, e); err != nil {
			return err
		}
	}
	return nil
}

func checkExternalLinks(links []IntegrationExternalLink) error {
	if len(links) > 5 {
		return Errorf(CodeInvalid, "externalLinks: at most 5 links")
	}
	for i, l := range links {
		at := fmt.Sprintf("externalLinks[%d]", i)
		if err := checkURL(at+".url", l.URL); err != nil {
			return err
		}
		if err := CheckLen(at+".label", l.Label, 1, 2048); err != nil {
			return err
		}
	}
	return nil
}

// checkConfigurations validates the reference's IntegrationConfigurations:
// account, space and site, each either a schema ({properties, required}) or
// a component ({componentId}), never both. Other keys are dropped; the
// result is nil when there is nothing to keep.
func checkConfigurations(raw json.RawMessage) (json.RawMessage, error) {
	if IsNull(raw) {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, Errorf(CodeInvalid, "configurations: must be an object")
	}
	out := map[string]json.RawMessage{}
	for _, target := range []string{"account", "space", "site"} {
		c, ok := all[target]
		if !ok || IsNull(c) {
			continue
		}
		if err := checkConfiguration("configurations."+target, c); err != nil {
			return nil, err
		}
		out[target] = c
	}
	if len(out) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(out)
	return b, err
}

func checkConfiguration(at string, raw json.RawMessage) error {
	var c struct {
		ComponentID *json.RawMessage            `json:"componentId"`
		Properties  *map[string]json.RawMessage `json:"properties"`
		Required    *[]string                   `json:"required"`
	}
	if err := DecodeJSON(raw, &c); err != nil {
		return Errorf(CodeInvalid, "%s: must be an object with properties or with componentId", at)
	}
	switch {
	case c.ComponentID != nil && c.Properties != nil:
		return Errorf(CodeInvalid, "%s: must have properties or componentId, not both", at)
	case c.ComponentID != nil:
		var id string
		if json.Unmarshal(*c.ComponentID, &id) != nil || id == "" {
			return Errorf(CodeInvalid, "%s.componentId: must be a non-empty string", at)
		}
		return nil
	case c.Properties == nil || *c.Properties == nil:
		return Errorf(CodeInvalid, "%s: must be an object with properties or with componentId", at)
	}
	for name, p := range *c.Properties {
		if err := checkConfigProperty(at+".properties."+name, p); err != nil {
			return err
		}
	}
	if c.Required != nil {
		seen := map[string]bool{}
		for i, name := range *c.Required {
			if _, ok := (*c.Properties)[name]; !ok || seen[name] {
				return Errorf(CodeInvalid, "%s.required[%d]: must name a property, once", at, i)
			}
			seen[name] = true
		}
	}
	return nil
}

// checkConfigProperty validates one configuration property: its type
// (string, number, boolean or button), a default of that type, and the
// fields each type requires.
func checkConfigProperty(at string, raw json.RawMessage) error {
	var p struct {
		Type          string           `json:"type"`
		Title         *string          `json:"title"`
		Description   *string          `json:"description"`
		Default       *json.RawMessage `json:"default"`
		CompletionURL *string          `json:"completion_url"`
		Enum          *[]string        `json:"enum"`
		CallbackURL   *string          `json:"callback_url"`
		ButtonText    *string          `json:"button_text"`
	}
	if err := DecodeJSON(raw, &p); err != nil {
		if msg := ErrorMessage(err); !strings.HasPrefix(msg, "body:") {
			return Errorf(CodeInvalid, "%s.%s", at, msg)
		}
		return Errorf(CodeInvalid, "%s: must be an object", at)
	}
	if p.Title != nil {
		if err := CheckLen(at+".title", *p.Title, 2, 50); err != nil {
			return err
		}
	}
	if p.Description != nil {
		if err := CheckText(at+".description", *p.Description, 0, 100); err != nil {
			return err
		}
	}
	var def any
	if p.Default != nil {
		json.Unmarshal(*p.Default, &def)
	}
	badDefault := Errorf(CodeInvalid, "%s.default: must be a %s", at, p.Type)
	switch p.Type {
	case "string":
		if _, ok := def.(string); p.Default != nil && !ok {
			return badDefault
		}
	case "number":
		if _, ok := def.(float64); p.Default != nil && !ok {
			return badDefault
		}
	case "boolean":
		if _, ok := def.(bool); p.Default != nil && !ok {
			return badDefault
		}
	case "button":
		if p.CallbackURL == nil || p.ButtonText == nil {
			return Errorf(CodeInvalid, "%s: a button must have callback_url and button_text", at)
		}
	default:
		return Errorf(CodeInvalid, "%s.type: must be one of string, number, boolean, button", at)
	}
	return nil
}

// checkCSP validates a content security policy: a string, or an object of
// directive strings. Null is none.
func checkCSP(raw json.RawMessage) (json.RawMessage, error) {
	if IsNull(raw) {
		return nil, nil
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return json.Marshal(str)
	}
	var directives map[string]string
	if err := json.Unmarshal(raw, &directives); err != nil {
		return nil, Errorf(CodeInvalid, "contentSecurityPolicy: must be a string or an object of strings")
	}
	return json.Marshal(directives)
}

// DecodeImage decodes a base64 image of at most max bytes and at most 8192
// pixels either way: GIF, JPEG or PNG. It returns the bytes and their
// content type.
func DecodeImage(field, b64 string, max int) ([]byte, string, error) {
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		if data, err = base64.RawStdEncoding.DecodeString(b64); err != nil {
			return nil, "", Errorf(CodeInvalid, "%s: must be base64", field)
		}
	}
	if len(data) > max {
		return nil, "", Errorf(CodeInvalid, "%s: must be at most %d bytes", field, max)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		return nil, "", Errorf(CodeInvalid, "%s: must be a GIF, JPEG or PNG image", field)
	}
	if cfg.Width > maxImageSide || cfg.Height > maxImageSide {
		return nil, "", Errorf(CodeInvalid, "%s: must be at most %d pixels either way", field, maxImageSide)
	}
	return data, "image/" + format, nil
}
