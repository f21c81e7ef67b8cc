package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Contract §4.17 Integrations. Quire keeps what is published (the script
// too) and serves the icons and preview images; it does not run scripts,
// so the public endpoints answer nothing. Installing: integration_installs.go.

// MaxPublishBytes bounds a publish body: the script and base64 images.
const MaxPublishBytes = 16 << 20

// Wire shapes.

// integrationJSON shows in, published by owner (wire.Links.Integration).
func (s *Server) integrationJSON(in *quire.Integration, owner authoring.IntegrationOwner) wire.Integration {
	return s.wire.Integration(in, owner.Org, owner.Member)
}

// owners loads integrations and their owners as the caller sees them, for
// one request.
func (s *Server) owners(r *http.Request) *authoring.IntegrationViewer {
	return s.author.IntegrationViewer(caller(r.Context()).ID)
}

func checkIntegrationName(r *http.Request) (string, error) {
	name := r.PathValue("integrationName")
	return name, quire.CheckIntegrationName("integrationName", name)
}

// integration loads the integration named in the path with its owner; 404
// when there is none or the caller may not see it.
func (s *Server) integration(r *http.Request) (*quire.Integration, authoring.IntegrationOwner, error) {
	name, err := checkIntegrationName(r)
	if err != nil {
		return nil, authoring.IntegrationOwner{}, err
	}
	return s.owners(r).Integration(r.Context(), name)
}

// listIntegrations lists the public integrations and those of the caller's
// organizations, by name.
func (s *Server) listIntegrations(w http.ResponseWriter, r *http.Request) error {
	return s.listIntegrationsWith(w, r, store.IntegrationFilter{ViewerID: caller(r.Context()).ID})
}

// listIntegrationsWith lists the integrations f lets through, further
// narrowed by the request's filters.
func (s *Server) listIntegrationsWith(w http.ResponseWriter, r *http.Request, f store.IntegrationFilter) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	q := query(r)
	f.Search, f.Owner = q.Get("search"), q.Get("owner")
	for _, e := range []struct {
		name   string
		dst    *string
		values []string
	}{
		{"category", &f.Category, quire.IntegrationCategories},
		{"scope", &f.Scope, quire.IntegrationScopes},
		{"target", &f.Target, quire.IntegrationTargets},
	} {
		if q.Has(e.name) {
			if err := quire.CheckOneOf(e.name, q.Get(e.name), e.values); err != nil {
				return err
			}
			*e.dst = q.Get(e.name)
		}
	}
	if q.Has("blockDomain") {
		if err := quire.CheckBlockDomain("blockDomain", q.Get("blockDomain")); err != nil {
			return err
		}
		f.BlockDomain = q.Get("blockDomain")
	}
	if f.Blocks, err = optBoolParam(r, "blocks"); err != nil {
		return err
	}
	if f.ContentSources, err = optBoolParam(r, "contentSources"); err != nil {
		return err
	}
	list, err := s.db.ListIntegrations(r.Context(), f, p)
	if err != nil {
		return err
	}
	o := s.owners(r)
	byName := map[string]authoring.IntegrationOwner{}
	for _, in := range list.Items {
		if byName[in.Name], err = o.Owner(r.Context(), in.OrgID); err != nil {
			return err
		}
	}
	return writeList(w, list, func(in *quire.Integration) wire.Integration { return s.integrationJSON(in, byName[in.Name]) })
}

func (s *Server) getIntegration(w http.ResponseWriter, r *http.Request) error {
	in, owner, err := s.integration(r)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.integrationJSON(in, owner))
}

// publishIntegration publishes an integration (integration.Publisher) for
// an organization the caller administers.
func (s *Server) publishIntegration(w http.ResponseWriter, r *http.Request) error {
	name, err := checkIntegrationName(r)
	if err != nil {
		return err
	}
	body := new(quire.PublishIntegration) // checked by the domain's rules
	if err := readRequestLimit(w, r, MaxPublishBytes, body); err != nil {
		return err
	}
	ctx := r.Context()
	org, err := s.db.OrganizationByRef(ctx, *body.Organization)
	if err != nil {
		return err
	}
	me, err := s.db.Member(ctx, org.ID, caller(ctx).ID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return errorf(quire.CodeNotFound, "organization not found")
	}
	if err != nil {
		return err
	}
	if !quire.PermissionsOf(me).Admin {
		return errorf(quire.CodeForbidden, "only admins of the organization may publish its integrations")
	}

	published, err := s.publisher.Publish(ctx, body, name, org.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.integrationJSON(published, authoring.IntegrationOwner{Org: org, Member: me}))
}

// unpublishIntegration answers 205 once it deleted the integration and 204
// when there was none to delete (the reference's two answers); the caller
// must administer its organization.
func (s *Server) unpublishIntegration(w http.ResponseWriter, r *http.Request) error {
	in, owner, err := s.integration(r)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return noContent(w) // none, or none the caller can see
	}
	if err != nil {
		return err
	}
	if !owner.Admin() {
		return errorf(quire.CodeForbidden, "only admins of the integration's organization may unpublish it")
	}
	deleted, err := s.db.DeleteIntegration(r.Context(), in.OrgID, in.Name)
	if err != nil {
		return err
	}
	return resetOrNoContent(w, deleted)
}

// listIntegrationInstallations lists where an integration is installed, for
// admins of its organization.
func (s *Server) listIntegrationInstallations(w http.ResponseWriter, r *http.Request) error {
	in, owner, err := s.integration(r)
	if err != nil {
		return err
	}
	if !owner.Admin() {
		return errorf(quire.CodeForbidden, "only admins of the integration's organization may list its installations")
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListIntegrationInstallations(r.Context(), in.Name, query(r).Get("externalId"), p)
	if err != nil {
		return err
	}
	return writeList(w, list, s.wire.Installation)
}

// getIntegrationAsset serves an integration's icon or preview image, with
// no token: the URLs go into <img> tags. An asset is named by its blob key,
// so its URL changes with its bytes and may be cached for good, and only the
// integration's own images are served.
func (s *Server) getIntegrationAsset(w http.ResponseWriter, r *http.Request) error {
	notFound := errorf(quire.CodeNotFound, "asset not found")
	name := r.PathValue("integrationName")
	if quire.CheckIntegrationName("integrationName", name) != nil {
		return notFound
	}
	in, err := s.db.Integration(r.Context(), name)
	if err != nil {
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return notFound
		}
		return err
	}
	a, ok := in.Asset(r.PathValue("assetId"))
	if !ok {
		return notFound
	}
	return s.serveBlob(w, r, a.Blob, a.ContentType, "", "sandbox; default-src 'none'", "public, max-age=31536000, immutable")
}
