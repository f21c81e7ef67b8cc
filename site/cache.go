package site

import (
	"crypto/sha256"
	"encoding/base64"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/gz"
	"github.com/quiredocs/quire/web"
)

// Rendered answers (pages, .md, llms.txt, sitemaps) are cached by a key
// naming everything they are made of: the site at its version, the site's
// structure as read (each space's current revision, title and emoji, so a
// merge anywhere makes new keys, here at once and on other servers within
// revision.PublishedTTL), the path the site was reached by, what was
// asked, and the outcomes of the conditions involved for this visitor, so
// visitors who see the same things share one entry and no entry ever
// serves what its visitor may not see. Old keys age out of the LRU.

// cachedAnswer is one rendered answer, gzipped on first demand.
type cachedAnswer struct {
	contentType string
	etag        string // strong, quoted, of the uncompressed body
	body        []byte
	gzOnce      sync.Once
	gz          []byte
}

func (c *cachedAnswer) gzipped() []byte {
	c.gzOnce.Do(func() { c.gz = gz.Fast(c.body) })
	return c.gz
}

// answerKey names an answer of kind for rq: the site, its version and
// structure, the root reached, and the visibility key vis.
func (rq *request) answerKey(kind, vis string, parts ...string) string {
	var b strings.Builder
	b.WriteString(kind)
	for _, p := range append([]string{rq.site.ID, strconv.FormatInt(rq.site.Version, 10), rq.structureKey(), rq.base, vis}, parts...) {
		b.WriteByte(0)
		b.WriteString(p)
	}
	return b.String()
}

// structureKey fingerprints what of the structure's spaces a rendering
// shows and the site's version does not count: their current revisions,
// titles and emoji.
func (rq *request) structureKey() string {
	h := fnv.New64a()
	for _, ss := range rq.st.AllSiteSpaces() {
		sp := ss.Space
		for _, s := range []string{ss.ID, sp.RevisionID, sp.Title, sp.Emoji} {
			h.Write([]byte(s))
			h.Write([]byte{0})
		}
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// serveCached answers the cached answer named key, building it first when
// missing; build returns the body and its content type.
func (s *Server) serveCached(w http.ResponseWriter, r *http.Request, rq *request, key string, build func() ([]byte, string, error)) error {
	c, ok := s.answers.Get(key)
	if !ok {
		body, ctype, err := build()
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		c = &cachedAnswer{contentType: ctype, etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:15]) + `"`, body: body}
		s.answers.Add(key, c, 2*len(body)+len(key)+128)
	}
	h := w.Header()
	h.Set("Content-Type", c.contentType)
	rq.cacheHeaders(h)
	if strings.HasPrefix(c.contentType, "text/html") {
		h.Set("Content-Security-Policy", pageCSP)
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	}
	var gz []byte
	if web.AcceptsGzip(r) {
		gz = c.gzipped()
	}
	web.WriteBody(w, r, c.etag, c.body, gz)
	return nil
}

// cacheHeaders: what anyone may read is cached briefly by browsers and
// proxies; what depends on who reads is kept private and unstored.
func (rq *request) cacheHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	if rq.site.Visibility == quire.VisibilityPublic && !rq.visitor.Member && !rq.conditional {
		h.Set("Cache-Control", "public, max-age=60")
		return
	}
	h.Set("Cache-Control", "private, no-store")
	if rq.site.Visibility != quire.VisibilityPublic {
		h.Set("X-Robots-Tag", "noindex")
	}
}
