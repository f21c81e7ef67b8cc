package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The request bodies of API specifications (Contract §4.16), named after
// the reference's operations.

// SpecSource is a spec's source: {"url": …} or {"text": …} as the
// reference has it, or, as the contract's "a text string" may also be read,
// a bare string of text.
type SpecSource struct {
	given     bool
	URL, Text *string
}

// UnmarshalJSON reads either form; null is as if left out.
func (src *SpecSource) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil // as if left out
	}
	src.given = true
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &src.Text)
	}
	var o struct {
		URL  *string `json:"url"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return quire.Errorf(quire.CodeInvalid, "source: must be an object with url or text")
	}
	src.URL, src.Text = o.URL, o.Text
	return nil
}

// source validates the source and returns it for the store.
func (src SpecSource) source() (store.OpenAPISource, error) {
	switch {
	case !src.given:
		return store.OpenAPISource{}, quire.Errorf(quire.CodeInvalid, "source: is required")
	case src.URL != nil && src.Text != nil:
		return store.OpenAPISource{}, quire.Errorf(quire.CodeInvalid, "source: must have url or text, not both")
	case src.URL != nil:
		return store.OpenAPISource{URL: *src.URL}, quire.CheckSpecURL("source.url", *src.URL)
	case src.Text != nil:
		return store.OpenAPISource{Text: *src.Text}, quire.CheckSpecText("source.text", *src.Text)
	}
	return store.OpenAPISource{}, quire.Errorf(quire.CodeInvalid, "source: must have url or text")
}

// CreateOrUpdateOpenAPISpec is the body of PUT O/openapi/{specSlug}, the
// reference's createOrUpdateOpenAPISpecBySlug.
type CreateOrUpdateOpenAPISpec struct {
	Source SpecSource `json:"source"`

	src store.OpenAPISource // set by Validate
}

// Validate checks the source, which is required.
func (b *CreateOrUpdateOpenAPISpec) Validate() (err error) {
	b.src, err = b.Source.source()
	return err
}

// SpecSource is the store's form of a validated b's source.
func (b *CreateOrUpdateOpenAPISpec) SpecSource() store.OpenAPISource { return b.src }

// CreateOpenAPISpec is the body of POST O/openapi, the reference's
// createOpenAPISpec.
type CreateOpenAPISpec struct {
	Slug *string `json:"slug"`
	CreateOrUpdateOpenAPISpec
}

// Validate checks the slug, which is required, then the source.
func (b *CreateOpenAPISpec) Validate() error {
	if err := quire.CheckRequired("slug", b.Slug != nil); err != nil {
		return err
	}
	if err := quire.CheckSpecSlug("slug", *b.Slug); err != nil {
		return err
	}
	return b.CreateOrUpdateOpenAPISpec.Validate()
}

// UpdateOpenAPISpec is the body of PATCH O/openapi/{specSlug}, the
// reference's updateOpenAPISpecBySlug.
type UpdateOpenAPISpec struct {
	Visibility *quire.SpecVisibility `json:"visibility"`
}

// Validate checks the visibility, which is required.
func (b *UpdateOpenAPISpec) Validate() error {
	if err := quire.CheckRequired("visibility", b.Visibility != nil); err != nil {
		return err
	}
	return quire.CheckSpecVisibility("visibility", *b.Visibility)
}
