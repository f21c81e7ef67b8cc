package authoring

import (
	"context"

	"github.com/quiredocs/quire"
)

// SpecVersion is version id of API specification p, with its document:
// "latest" (or "") names the spec's last processed version, CodeNotFound
// until one is processed.
func (a *Author) SpecVersion(ctx context.Context, p *quire.OpenAPISpec, id string) (*quire.OpenAPISpecVersion, error) {
	if id == "" || id == "latest" {
		if p.LastVersion == "" {
			return nil, quire.Errorf(quire.CodeNotFound, "API specification %s has no processed version yet", p.Slug)
		}
		id = p.LastVersion
	}
	return a.DB.OpenAPISpecVersion(ctx, p.ID, id)
}

// PublicSpecVersion is version id (as SpecVersion reads it) of the API
// specification slug of organization orgID, for anyone, with no account:
// only a public spec's versions are; any other spec, to them, does not
// exist.
func (a *Author) PublicSpecVersion(ctx context.Context, orgID, slug, id string) (*quire.OpenAPISpecVersion, error) {
	p, err := a.DB.OpenAPISpec(ctx, orgID, slug)
	if err == nil && p.Visibility != quire.SpecPublic {
		err = quire.Errorf(quire.CodeNotFound, "API specification not found")
	}
	if err != nil {
		return nil, err
	}
	return a.SpecVersion(ctx, p, id)
}
