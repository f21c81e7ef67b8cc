package site

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
)

// redirect answers 308 when the request's path is the source of one of the
// site's redirects (Contract §4.12) whose section the visitor sees, to
// that section's root, and reports whether it did. Lookups, found or not,
// are cached by the site's version, which every change of its redirects
// raises.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, rq *request) bool {
	source := "/" + strings.TrimSuffix(rq.rest, "/")
	if quire.CheckRedirectSource("source", source) != nil {
		return false
	}
	key := rq.site.ID + "\x00" + strconv.FormatInt(rq.site.Version, 10) + "\x00" + source
	sectionID, ok := s.redirects.Get(key)
	if !ok {
		rd, err := s.db.SiteRedirectBySource(r.Context(), rq.site.ID, source)
		switch {
		case err == nil:
			sectionID = rd.SectionID
		case quire.ErrorCode(err) != quire.CodeNotFound:
			s.cfg.Logger.Error("published site: redirect", "path", r.URL.Path, "err", err)
			return false
		}
		s.redirects.Add(key, sectionID, len(key)+len(sectionID)+32)
	}
	if sectionID == "" {
		return false
	}
	for _, sec := range rq.visibleSections() {
		if sec.ID == sectionID {
			http.Redirect(w, r, rq.url(sec, nil, ""), http.StatusPermanentRedirect)
			return true
		}
	}
	return false
}
