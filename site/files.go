package site

import (
	"errors"
	"io/fs"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/web"
)

// serveFile answers rest, "{siteSpaceId}/{fileId}/{name}": a file of the
// current revision of a site space the visitor sees, from the blob store.
// Types a browser shows safely are served inline; anything else, HTML
// and scripts above all, is an attachment, and SVG is sandboxed.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, rq *request, rest string) error {
	ssID, rest, _ := strings.Cut(rest, "/")
	fileID, _, _ := strings.Cut(rest, "/")
	var sec *quire.SiteSection
	ss := rq.siteSpaceByID(ssID, &sec)
	if ss == nil {
		return errNotFound
	}
	v, err := s.cfg.Reader.Open(r.Context(), ss.Space, ss.Space.RevisionID, nil)
	if err != nil {
		return err
	}
	f := v.Tree.Files[fileID]
	if f == nil || s.cfg.Blobs == nil {
		return errNotFound
	}
	body, err := s.cfg.Blobs.Open(r.Context(), f.Blob)
	if errors.Is(err, fs.ErrNotExist) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	defer body.Close()
	rq.cacheHeaders(w.Header())
	web.ServeFile(w, r, f, body)
	return nil
}

// siteSpaceByID finds a site space the visitor sees, and its section.
func (rq *request) siteSpaceByID(id string, sec **quire.SiteSection) *quire.SiteSpace {
	for _, ss := range rq.visibleSiteSpaces(rq.st.SiteSpaces) {
		if ss.ID == id {
			return ss
		}
	}
	for _, s := range rq.visibleSections() {
		for _, ss := range rq.visibleSiteSpaces(s.SiteSpaces) {
			if ss.ID == id {
				*sec = s
				return ss
			}
		}
	}
	return nil
}
