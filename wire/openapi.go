package wire

import (
	"encoding/json"

	oasyaml "github.com/oasdiff/yaml"
	"github.com/quiredocs/quire"
)

// Spec is how the API shows an OpenAPI specification of an organization.
type Spec struct {
	Object                  string          `json:"object"`
	ID                      string          `json:"id"`
	CreatedAt               string          `json:"createdAt"`
	UpdatedAt               string          `json:"updatedAt"`
	Slug                    string          `json:"slug"`
	SourceURL               string          `json:"sourceURL,omitempty"`
	ProcessingState         string          `json:"processingState"`
	Visibility              string          `json:"visibility"`
	LastVersion             string          `json:"lastVersion,omitempty"`
	LastProcessedAt         string          `json:"lastProcessedAt,omitempty"`
	LastProcessErrorCode    string          `json:"lastProcessErrorCode,omitempty"`
	LastProcessedErrors     []SpecError     `json:"lastProcessedErrors,omitempty"`
	LastProcessedErrorCount int             `json:"lastProcessedErrorCount"`
	Permissions             SpecPermissions `json:"permissions"`
	URLs                    SpecURLs        `json:"urls"`
}

// SpecURLs is how the API shows the addresses of an OpenAPI specification.
type SpecURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"` // a public spec's latest document, for anyone
}

// SpecError is how the API shows why an OpenAPI specification's latest
// version failed to process.
type SpecError struct {
	Message string `json:"message"`
}

// SpecPermissions is how the API shows what the caller may do with an
// OpenAPI specification.
type SpecPermissions struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}

// Spec shows an OpenAPI specification of an organization as the API answers
// it.
func (l Links) Spec(p *quire.OpenAPISpec, me *quire.Member) Spec {
	out := Spec{
		Object: "openapi-spec", ID: p.ID, CreatedAt: Time(p.CreatedAt), UpdatedAt: Time(p.UpdatedAt),
		LastProcessedAt: OptTime(p.LastProcessedAt), Slug: p.Slug, SourceURL: p.SourceURL, ProcessingState: string(p.State), Visibility: string(p.Visibility), LastVersion: p.LastVersion,
		LastProcessErrorCode: string(p.LastErrorCode), LastProcessedErrorCount: p.LastErrorCount,
		Permissions: SpecPermissions{View: true, Edit: quire.PermissionsOf(me).CreateContent},
		URLs: SpecURLs{
			Location: l.API(specPath(p.OrgID, p.Slug)),
			App:      quire.AppOpenAPIURL(l.PublicURL, p.OrgID, p.Slug),
		},
	}
	if p.Visibility == quire.SpecPublic && p.LastVersion != "" {
		out.URLs.Published = l.API(specPath(p.OrgID, p.Slug) + "/versions/latest/public")
	}
	for _, m := range p.LastErrors {
		out.LastProcessedErrors = append(out.LastProcessedErrors, SpecError{Message: m})
	}
	return out
}

// SpecVersion is how the API shows a version of an OpenAPI specification.
type SpecVersion struct {
	Object    string          `json:"object"`
	ID        string          `json:"id"`
	CreatedAt string          `json:"createdAt"`
	URL       string          `json:"url"`
	URLs      SpecVersionURLs `json:"urls"`
}

// SpecVersionURLs is how the API shows the addresses of an OpenAPI
// specification's version.
type SpecVersionURLs struct {
	Location string `json:"location"`
}

// SpecContent is the reference's OpenAPISpecContent. Quire refuses
// references to other files, so a spec's filesystem is one file: the
// document, as JSON, under its entry point's name.
type SpecContent struct {
	Filesystem map[string]json.RawMessage `json:"filesystem"`
	URLs       SpecContentURLs            `json:"urls"`
}

// SpecContentURLs is how the API shows the addresses of an OpenAPI
// specification's content.
type SpecContentURLs struct {
	Source string  `json:"source"`
	Public *string `json:"public"` // null for a private spec
}

// SpecRaw is the reference's OpenAPISpecRawContent.
type SpecRaw struct {
	Text   string `json:"text"`
	Format string `json:"format"`
}

// specPath is the API path of spec slug of organization orgID.
func specPath(orgID, slug string) string { return "/orgs/" + orgID + "/openapi/" + slug }

// specVersionURL is where a version's document is: the URL it was fetched
// from, or, for a text source, its raw content in the API.
func (l Links) specVersionURL(orgID, slug string, v *quire.OpenAPISpecVersion) string {
	if v.SourceURL != "" {
		return v.SourceURL
	}
	return l.API(specPath(orgID, slug) + "/versions/" + v.ID + "/content/raw")
}

// SpecVersion shows a version of an OpenAPI specification as the API
// answers it.
func (l Links) SpecVersion(p *quire.OpenAPISpec, v *quire.OpenAPISpecVersion) SpecVersion {
	return SpecVersion{
		Object: "openapi-spec-version", ID: v.ID, CreatedAt: Time(v.CreatedAt),
		URL:  l.specVersionURL(p.OrgID, p.Slug, v),
		URLs: SpecVersionURLs{Location: l.API(specPath(p.OrgID, p.Slug) + "/versions/" + v.ID)},
	}
}

// specPublicURL is a public spec's address for anyone, without a token:
// for a fetched version the URL it came from (as the reference has it),
// else Quire's copy; "" for a private spec.
func (l Links) specPublicURL(p *quire.OpenAPISpec, v *quire.OpenAPISpecVersion) string {
	switch {
	case p.Visibility != quire.SpecPublic:
		return ""
	case v.SourceURL != "":
		return v.SourceURL
	}
	return l.API(specPath(p.OrgID, p.Slug) + "/versions/" + v.ID + "/public")
}

// SpecSyntax is "json" or "yaml": what the document was given as.
func SpecSyntax(v *quire.OpenAPISpecVersion) string {
	if v.JSONDocument == "" && json.Valid([]byte(v.Document)) {
		return "json"
	}
	return "yaml"
}

// specDocument is the version's document as JSON. Versions processed
// before the JSON form was kept are converted here.
func specDocument(v *quire.OpenAPISpecVersion) (json.RawMessage, error) {
	switch {
	case v.JSONDocument != "":
		return json.RawMessage(v.JSONDocument), nil
	case SpecSyntax(v) == "json":
		return json.RawMessage(v.Document), nil
	}
	return oasyaml.YAMLToJSON([]byte(v.Document))
}

// SpecContent shows version v of spec p: its document as JSON, named for
// the syntax it was given in, where it came from and, for a public spec,
// where anyone may read it.
func (l Links) SpecContent(p *quire.OpenAPISpec, v *quire.OpenAPISpecVersion) (SpecContent, error) {
	doc, err := specDocument(v)
	if err != nil {
		return SpecContent{}, err
	}
	out := SpecContent{
		Filesystem: map[string]json.RawMessage{"openapi." + SpecSyntax(v): doc},
		URLs:       SpecContentURLs{Source: l.specVersionURL(p.OrgID, p.Slug, v)},
	}
	if public := l.specPublicURL(p, v); public != "" {
		out.URLs.Public = &public
	}
	return out, nil
}
