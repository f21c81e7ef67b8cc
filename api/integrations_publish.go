package api

import (
	"bytes"
	"context"
	"crypto/aes"
	"crypto/cipher"
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

	"github.com/quiredocs/quire"
)

// What POST /integrations/{name} takes: the body, its checks, and how its
// images are decoded and its secrets sealed. Contract §4.17.

// publishBody is the body of POST /integrations/{name} (the reference's
// PublishIntegration).
type publishBody struct {
	Runtime               *string                           `json:"runtime"`
	Icon                  *string                           `json:"icon"`
	Title                 *string                           `json:"title"`
	Description           *string                           `json:"description"`
	Summary               *string                           `json:"summary"`
	PreviewImages         []string                          `json:"previewImages"`
	Visibility            *string                           `json:"visibility"`
	Target                *string                           `json:"target"`
	Scopes                *[]string                         `json:"scopes"`
	Categories            []string                          `json:"categories"`
	Blocks                []integrationBlock                `json:"blocks"`
	ContentSources        []integrationSource               `json:"contentSources"`
	ExternalLinks         []externalLink                    `json:"externalLinks"`
	Configurations        json.RawMessage                   `json:"configurations"`
	Script                *string                           `json:"script"`
	Organization          *string                           `json:"organization"`
	Secrets               quire.Optional[map[string]string] `json:"secrets"`
	ContentSecurityPolicy json.RawMessage                   `json:"contentSecurityPolicy"`
}

// integrationBlock is the reference's IntegrationBlock; it is stored as
// decoded here, so unknown fields are dropped.
type integrationBlock struct {
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

// integrationSource is the reference's IntegrationContentSource.
type integrationSource struct {
	ID            string `json:"id"`
	Title         string `json:"title"`
	Description   string `json:"description,omitempty"`
	Icon          string `json:"icon,omitempty"`
	Configuration *struct {
		ComponentID string `json:"componentId"`
	} `json:"configuration"`
}

type externalLink struct {
	URL   string `json:"url"`
	Label string `json:"label"`
}

// validate checks every field but the images, which are decoded later, and
// fills the defaults: runtime v1, target all, visibility private.
func (b *publishBody) validate() error {
	if err := quire.FirstError(
		quire.CheckRequired("organization", b.Organization != nil),
		quire.CheckRequired("title", b.Title != nil),
		quire.CheckRequired("description", b.Description != nil),
		quire.CheckRequired("script", b.Script != nil),
		quire.CheckRequired("scopes", b.Scopes != nil),
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
		{"runtime", "v1", &b.Runtime, quire.IntegrationRuntimes},
		{"visibility", "private", &b.Visibility, quire.IntegrationVisibilities},
		{"target", "all", &b.Target, quire.IntegrationTargets},
	} {
		if *d.v == nil {
			*d.v = &d.def
		} else if err := checkEnumValue(d.field, **d.v, d.values); err != nil {
			return err
		}
	}
	if err := quire.FirstError(
		quire.CheckLen("organization", *b.Organization, 1, 255),
		quire.CheckLen("title", *b.Title, 2, 30),
		quire.CheckText("description", *b.Description, 0, 100),
		quire.CheckText("summary", *b.Summary, 0, 2048),
	); err != nil {
		return err
	}
	if *b.Script == "" {
		return errorf(quire.CodeInvalid, "script: must not be empty")
	}
	if len(*b.Script) > maxScriptBytes {
		return errorf(quire.CodeInvalid, "script: must be at most %d bytes", maxScriptBytes)
	}
	var err error
	if *b.Scopes, err = enumList("scopes", *b.Scopes, quire.IntegrationScopes); err != nil {
		return err
	}
	if b.Categories, err = enumList("categories", b.Categories, quire.IntegrationCategories); err != nil {
		return err
	}
	if len(b.PreviewImages) > 3 {
		return errorf(quire.CodeInvalid, "previewImages: at most 3 images")
	}
	if err := quire.FirstError(checkBlocks(b.Blocks), checkSources(b.ContentSources), checkExternalLinks(b.ExternalLinks)); err != nil {
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
			return errorf(quire.CodeInvalid, "secrets: at most %d secrets", maxSecrets)
		}
		for _, k := range slices.Sorted(maps.Keys(b.Secrets.Value)) {
			v := b.Secrets.Value[k]
			if err := quire.CheckLen("secrets", k, 1, 100); err != nil {
				return errorf(quire.CodeInvalid, "secrets: names must be 1 to 100 characters")
			}
			if len(v) > maxSecretBytes {
				return errorf(quire.CodeInvalid, "secrets.%s: must be at most %d bytes", k, maxSecretBytes)
			}
		}
	}
	return nil
}

// publishedIntegration is the integration b publishes as name for orgID, its icon,
// preview images and script decoded and stored. They are stored before the
// transaction, which must have no side effects; blobs are content-addressed,
// so a failed publish leaves at worst unreferenced bytes.
func (s *Server) publishedIntegration(ctx context.Context, b *publishBody, name, orgID string) (*quire.Integration, error) {
	in := &quire.Integration{
		Name: name, OrgID: orgID, Title: *b.Title, Description: *b.Description, Summary: *b.Summary,
		Visibility: *b.Visibility, Target: *b.Target, Runtime: *b.Runtime, Scopes: *b.Scopes,
		Categories: b.Categories, Configurations: b.Configurations, ContentSecurityPolicy: b.ContentSecurityPolicy,
		PreviewImages: []quire.IntegrationAsset{},
	}
	var err error
	if b.Icon != nil {
		if in.Icon, err = s.storeImage(ctx, "icon", *b.Icon, maxIconBytes); err != nil {
			return nil, err
		}
	}
	for i, b64 := range b.PreviewImages {
		a, err := s.storeImage(ctx, fmt.Sprintf("previewImages[%d]", i), b64, maxPreviewBytes)
		if err != nil {
			return nil, err
		}
		in.PreviewImages = append(in.PreviewImages, *a)
	}
	if in.Script, err = s.blobs.Put(ctx, []byte(*b.Script)); err != nil {
		return nil, fmt.Errorf("store script: %w", err)
	}
	for dst, v := range map[*json.RawMessage]any{&in.Blocks: nonNil(b.Blocks), &in.ContentSources: nonNil(b.ContentSources), &in.ExternalLinks: nonNil(b.ExternalLinks)} {
		if *dst, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// blockDomains lists the domains of the blocks' URL unfurl patterns, each once.
func (b *publishBody) blockDomains() []string {
	var domains []string
	for _, bl := range b.Blocks {
		for _, p := range bl.URLUnfurl {
			if d := quire.UnfurlDomain(p); d != "" && !slices.Contains(domains, d) {
				domains = append(domains, d)
			}
		}
	}
	return domains
}

// enumList checks each value of a list against an enumeration and drops
// repeats; a missing list is empty.
func enumList(field string, list, values []string) ([]string, error) {
	out := []string{}
	for i, v := range list {
		if err := checkEnumValue(fmt.Sprintf("%s[%d]", field, i), v, values); err != nil {
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
		return errorf(quire.CodeInvalid, "%s: must be an http or https URL of at most 2048 characters", field)
	}
	return nil
}

func checkBlocks(blocks []integrationBlock) error {
	if len(blocks) > maxBlocks {
		return errorf(quire.CodeInvalid, "blocks: at most %d blocks", maxBlocks)
	}
	seen := map[string]bool{}
	for i, b := range blocks {
		at := fmt.Sprintf("blocks[%d]", i)
		if err := quire.FirstError(
			quire.CheckLen(at+".id", b.ID, 1, 100),
			quire.CheckLen(at+".title", b.Title, 2, 40),
			quire.CheckText(at+".description", b.Description, 0, 150),
			quire.CheckLen(at+".icon", b.Icon, 0, 2048),
		); err != nil {
			return err
		}
		if seen[b.ID] {
			return errorf(quire.CodeInvalid, "%s.id: %q is the id of an earlier block", at, b.ID)
		}
		seen[b.ID] = true
		if len(b.URLUnfurl) > maxURLUnfurls {
			return errorf(quire.CodeInvalid, "%s.urlUnfurl: at most %d patterns", at, maxURLUnfurls)
		}
		for j, u := range b.URLUnfurl {
			if err := quire.CheckLen(fmt.Sprintf("%s.urlUnfurl[%d]", at, j), u, 1, 2048); err != nil {
				return err
			}
		}
		if m := b.Markdown; m != nil && (m.Codeblock == "" || m.Body == "") {
			return errorf(quire.CodeInvalid, "%s.markdown: must have codeblock and body", at)
		}
	}
	return nil
}

func checkSources(sources []integrationSource) error {
	if len(sources) > maxBlocks {
		return errorf(quire.CodeInvalid, "contentSources: at most %d content sources", maxBlocks)
	}
	seen := map[string]bool{}
	for i, c := range sources {
		at := fmt.Sprintf("contentSources[%d]", i)
		if err := quire.FirstError(
			quire.CheckLen(at+".id", c.ID, 1, 100),
			quire.CheckLen(at+".title", c.Title, 2, 40),
			quire.CheckText(at+".description", c.Description, 0, 150),
			quire.CheckLen(at+".icon", c.Icon, 0, 2048),
		); err != nil {
			return err
		}
		if seen[c.ID] {
			return errorf(quire.CodeInvalid, "%s.id: %q is the id of an earlier content source", at, c.ID)
		}
		seen[c.ID] = true
		if c.Configuration == nil || c.Configuration.ComponentID == "" {
			return errorf(quire.CodeInvalid, "%s.configuration.componentId: is required", at)
		}
	}
	return nil
}

func checkExternalLinks(links []externalLink) error {
	if len(links) > 5 {
		return errorf(quire.CodeInvalid, "externalLinks: at most 5 links")
	}
	for i, l := range links {
		at := fmt.Sprintf("externalLinks[%d]", i)
		if err := checkURL(at+".url", l.URL); err != nil {
			return err
		}
		if err := quire.CheckLen(at+".label", l.Label, 1, 2048); err != nil {
			return err
		}
	}
	return nil
}

// isNull reports whether a raw field was absent or null.
func isNull(raw json.RawMessage) bool {
	return raw == nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// checkConfigurations validates the reference's IntegrationConfigurations:
// account, space and site, each either a schema ({properties, required}) or
// a component ({componentId}), never both. Other keys are dropped; the
// result is nil when there is nothing to keep.
func checkConfigurations(raw json.RawMessage) (json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, errorf(quire.CodeInvalid, "configurations: must be an object")
	}
	out := map[string]json.RawMessage{}
	for _, target := range []string{"account", "space", "site"} {
		c, ok := all[target]
		if !ok || isNull(c) {
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
	if err := decodeJSON(raw, &c); err != nil {
		return errorf(quire.CodeInvalid, "%s: must be an object with properties or with componentId", at)
	}
	switch {
	case c.ComponentID != nil && c.Properties != nil:
		return errorf(quire.CodeInvalid, "%s: must have properties or componentId, not both", at)
	case c.ComponentID != nil:
		var id string
		if json.Unmarshal(*c.ComponentID, &id) != nil || id == "" {
			return errorf(quire.CodeInvalid, "%s.componentId: must be a non-empty string", at)
		}
		return nil
	case c.Properties == nil || *c.Properties == nil:
		return errorf(quire.CodeInvalid, "%s: must be an object with properties or with componentId", at)
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
				return errorf(quire.CodeInvalid, "%s.required[%d]: must name a property, once", at, i)
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
	if err := decodeJSON(raw, &p); err != nil {
		if msg := quire.ErrorMessage(err); !strings.HasPrefix(msg, "body:") {
			return errorf(quire.CodeInvalid, "%s.%s", at, msg)
		}
		return errorf(quire.CodeInvalid, "%s: must be an object", at)
	}
	if p.Title != nil {
		if err := quire.CheckLen(at+".title", *p.Title, 2, 50); err != nil {
			return err
		}
	}
	if p.Description != nil {
		if err := quire.CheckText(at+".description", *p.Description, 0, 100); err != nil {
			return err
		}
	}
	var def any
	if p.Default != nil {
		json.Unmarshal(*p.Default, &def)
	}
	badDefault := errorf(quire.CodeInvalid, "%s.default: must be a %s", at, p.Type)
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
			return errorf(quire.CodeInvalid, "%s: a button must have callback_url and button_text", at)
		}
	default:
		return errorf(quire.CodeInvalid, "%s.type: must be one of string, number, boolean, button", at)
	}
	return nil
}

// checkCSP validates a content security policy: a string, or an object of
// directive strings. Null is none.
func checkCSP(raw json.RawMessage) (json.RawMessage, error) {
	if isNull(raw) {
		return nil, nil
	}
	var str string
	if json.Unmarshal(raw, &str) == nil {
		return json.Marshal(str)
	}
	var directives map[string]string
	if err := json.Unmarshal(raw, &directives); err != nil {
		return nil, errorf(quire.CodeInvalid, "contentSecurityPolicy: must be a string or an object of strings")
	}
	return json.Marshal(directives)
}

// decodeImage decodes a base64 image of at most max bytes: GIF, JPEG or PNG.
func decodeImage(field, b64 string, max int) ([]byte, string, error) {
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		if data, err = base64.RawStdEncoding.DecodeString(b64); err != nil {
			return nil, "", errorf(quire.CodeInvalid, "%s: must be base64", field)
		}
	}
	if len(data) > max {
		return nil, "", errorf(quire.CodeInvalid, "%s: must be at most %d bytes", field, max)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width == 0 || cfg.Height == 0 {
		return nil, "", errorf(quire.CodeInvalid, "%s: must be a GIF, JPEG or PNG image", field)
	}
	if cfg.Width > maxImageSide || cfg.Height > maxImageSide {
		return nil, "", errorf(quire.CodeInvalid, "%s: must be at most %d pixels either way", field, maxImageSide)
	}
	return data, "image/" + format, nil
}

// integrationSecretsKey names the server key that seals secrets when no key
// is configured (Config.SecretKey).
const integrationSecretsKey = "integration-secrets"

// sealedSecretsVersion starts every sealed secrets value: the format is
// version byte, 12-byte nonce, AES-256-GCM ciphertext and tag, with the
// integration's name as additional data so a value cannot move to another row.
const sealedSecretsVersion = 1

// sealSecrets encrypts an integration's secrets for the database.
func (s *Server) sealSecrets(ctx context.Context, name string, secrets map[string]string) ([]byte, error) {
	key := s.secretKey
	if key == nil {
		var err error
		if key, err = s.db.ServerKey(ctx, integrationSecretsKey); err != nil {
			return nil, err
		}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	gcm, err := cipher.NewGCMWithRandomNonce(block) // prepends a fresh random nonce
	if err != nil {
		return nil, err
	}
	plain, err := json.Marshal(secrets)
	if err != nil {
		return nil, err
	}
	return gcm.Seal([]byte{sealedSecretsVersion}, nil, plain, []byte(name)), nil
}
