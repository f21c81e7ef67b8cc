package site

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
)

// redirect answers 308 when the request's path is the source of one of the
// site's redirects (Contract §4.12) whose section the visitor sees, to
// that section's root, and reports whether it did. Lookups, found or not,
// are cached by the site's version, which every change of its redirects
// raises.
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, rq *request) bool {
	source := "/" + strings.TrimSuffix(rq.rest, "/")
	key := rq.site.ID + "\x00" + strconv.FormatInt(rq.site.Version, 10) + "\x00" + source
	sectionID, ok := s.redirects.Get(key)
	if !ok {
		// Only a path that could be a source is looked up; checked on a
		// miss, as every page view asks.
		if quire.CheckRedirectSource("source", source) == nil {
			rd, err := s.db.SiteRedirectBySource(r.Context(), rq.site.ID, source)
			switch {
			case err == nil:
				sectionID = rd.SectionID
			case quire.ErrorCode(err) != quire.CodeNotFound:
				s.cfg.Logger.Error("published site: redirect", "path", r.URL.Path, "err", err)
				return false
			}
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

// spaceRedirect answers 308 when path, a page path that leads nowhere in
// n's space, is the source of one of the space's redirects (from its
// .gitbook.yaml) to a page the visitor sees, to that page's URL (its
// markdown's when asMarkdown), and reports whether it did. Only paths that
// lead nowhere ask, so the lookup is not cached.
func (s *Server) spaceRedirect(w http.ResponseWriter, r *http.Request, n *spaceNav, path string, asMarkdown bool) bool {
	id, err := s.db.SpaceRedirect(r.Context(), n.v.Space.ID, strings.Trim(path, "/"))
	if err != nil {
		s.cfg.Logger.Error("published site: space redirect", "path", r.URL.Path, "err", err)
		return false
	}
	if id == "" || n.v.Page(id) == nil || !n.visible(id) {
		return false
	}
	to := n.url(id)
	if asMarkdown {
		to = n.mdURL(id)
	}
	if r.URL.RawQuery != "" {
		to += "?" + r.URL.RawQuery
	}
	n.rq.cacheHeaders(w.Header())
	http.Redirect(w, r, to, http.StatusPermanentRedirect)
	return true
}

// Bounds of a walk back through a space's history for the former paths of
// its pages: a 404 costs at most one such walk per space and revision.
const (
	movedRevisions = 100
	movedTime      = time.Second
)

// movedPage answers 308 when path, a page path that leads nowhere in n's
// space, is where a page the visitor sees used to be, to that page's URL
// (its markdown's when asMarkdown), and reports whether it did.
func (s *Server) movedPage(w http.ResponseWriter, r *http.Request, n *spaceNav, path string, asMarkdown bool) bool {
	id := s.formerPaths(r.Context(), n.v)[content.SlugPath(path)]
	if id == "" || !n.visible(id) {
		return false
	}
	to := n.url(id)
	if asMarkdown {
		to = n.mdURL(id)
	}
	if r.URL.RawQuery != "" {
		to += "?" + r.URL.RawQuery
	}
	n.rq.cacheHeaders(w.Header())
	http.Redirect(w, r, to, http.StatusPermanentRedirect)
	return true
}

// formerWalk is a walk of a space's history under way; paths is set when
// done is closed.
type formerWalk struct {
	done  chan struct{}
	paths map[string]string
}

// formerPaths maps the former page paths of v's space to the ids of the
// pages of v that held them (revision.Reader.FormerPaths), walked once per
// space and revision: requests that come during the walk wait for it.
// What a walk finds in its time is kept, even if it had more to read; a
// walk that failed otherwise is tried again by the next request.
func (s *Server) formerPaths(ctx context.Context, v *revision.View) map[string]string {
	key := v.Space.ID + "\x00" + v.Revision.ID
	if paths, ok := s.moved.Get(key); ok {
		return paths
	}
	s.movedMu.Lock()
	if paths, ok := s.moved.Get(key); ok {
		s.movedMu.Unlock()
		return paths
	}
	fw, running := s.walking[key]
	if !running {
		fw = &formerWalk{done: make(chan struct{})}
		s.walking[key] = fw
	}
	s.movedMu.Unlock()
	if running {
		select {
		case <-fw.done:
			return fw.paths
		case <-ctx.Done():
			return nil
		}
	}

	// The walk serves every request waiting for it: it outlives this one.
	var paths map[string]string
	keep := false
	defer func() { // even if the walk panics, so that no request waits on it
		fw.paths = paths
		s.movedMu.Lock()
		delete(s.walking, key)
		if keep {
			cost := len(key) + 64
			for p, id := range paths {
				cost += len(p) + len(id) + 48
			}
			s.moved.Add(key, paths, cost)
		}
		s.movedMu.Unlock()
		close(fw.done)
	}()
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), movedTime)
	defer cancel()
	paths, err := s.cfg.Reader.FormerPaths(wctx, v, movedRevisions)
	if keep = err == nil || errors.Is(err, context.DeadlineExceeded); !keep {
		s.cfg.Logger.Error("published site: former paths", "space", v.Space.ID, "revision", v.Revision.ID, "err", err)
	}
	return paths
}
