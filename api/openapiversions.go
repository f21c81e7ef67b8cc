package api

import (
	"io"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// API specification visibility and versions (issue 19). Every successful
// processing keeps a version (store.FinishOpenAPIJob); these read them.
// Who reads them is who reads the spec (specMember): every member but
// guests. A public spec's documents are also served, without a token, at
// …/versions/{versionId}/public (not in the reference), its public URL.

// updateSpec sets a spec's visibility.
func (s *Server) updateSpec(w http.ResponseWriter, r *http.Request) error {
	me, err := s.specMember(r, true)
	if err != nil {
		return err
	}
	var body wire.UpdateOpenAPISpec
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	p, err := s.db.UpdateOpenAPISpecVisibility(r.Context(), me.OrgID, r.PathValue("specSlug"), *body.Visibility)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Spec(p, me))
}

// readSpec is the spec in the path, for a caller who may read specs.
func (s *Server) readSpec(r *http.Request) (*quire.OpenAPISpec, error) {
	me, err := s.specMember(r, false)
	if err != nil {
		return nil, err
	}
	return s.db.OpenAPISpec(r.Context(), me.OrgID, r.PathValue("specSlug"))
}

func (s *Server) listSpecVersions(w http.ResponseWriter, r *http.Request) error {
	p, err := s.readSpec(r)
	if err != nil {
		return err
	}
	page, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListOpenAPISpecVersions(r.Context(), p.ID, page)
	if err != nil {
		return err
	}
	return writeList(w, list, func(v *quire.OpenAPISpecVersion) wire.SpecVersion { return s.wire.SpecVersion(p, v) })
}

// onSpecVersion adapts a handler of a readable spec's version to a route.
func (s *Server) onSpecVersion(h func(http.ResponseWriter, *quire.OpenAPISpec, *quire.OpenAPISpecVersion) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		p, err := s.readSpec(r)
		if err != nil {
			return err
		}
		v, err := s.author.SpecVersion(r.Context(), p, r.PathValue("versionId"))
		if err != nil {
			return err
		}
		return h(w, p, v)
	}
}

func (s *Server) getSpecVersion(w http.ResponseWriter, p *quire.OpenAPISpec, v *quire.OpenAPISpecVersion) error {
	return writeJSON(w, http.StatusOK, s.wire.SpecVersion(p, v))
}

func (s *Server) getSpecVersionContent(w http.ResponseWriter, p *quire.OpenAPISpec, v *quire.OpenAPISpecVersion) error {
	out, err := s.wire.SpecContent(p, v)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, out)
}

func (s *Server) getSpecVersionRaw(w http.ResponseWriter, _ *quire.OpenAPISpec, v *quire.OpenAPISpecVersion) error {
	return writeJSON(w, http.StatusOK, wire.SpecRaw{Text: v.Document, Format: wire.SpecSyntax(v)})
}

// getPublicSpecVersion serves a public spec's document as given, to anyone:
// its public URL. A private spec, to this route, does not exist. The
// answer is the document's own bytes, never run as a page of this origin.
func (s *Server) getPublicSpecVersion(w http.ResponseWriter, r *http.Request) error {
	v, err := s.author.PublicSpecVersion(r.Context(), r.PathValue("organizationId"), r.PathValue("specSlug"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	if wire.SpecSyntax(v) == "yaml" {
		h.Set("Content-Type", "application/yaml; charset=utf-8")
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Access-Control-Allow-Origin", "*") // public: "Try it" pages fetch it from other sites
	h.Set("Cache-Control", "public, max-age=60")
	w.WriteHeader(http.StatusOK)
	_, err = io.WriteString(w, v.Document)
	return err
}
