package web

import (
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"

	"github.com/quiredocs/quire/internal/gz"
)

// Asset is an embedded file, hashed and compressed once.
type Asset struct {
	Name, Hash, ContentType string
	Body, Gz                []byte // Gz is nil when compressing saves nothing worth having
}

// Assets are embedded files by name, served at versioned URLs
// ".../~assets/{hash}/{name}".
type Assets map[string]*Asset

// NewAssets hashes and compresses files (name → body); the content type
// comes from the name's extension.
func NewAssets(files map[string][]byte) Assets {
	set := Assets{}
	for name, body := range files {
		sum := sha256.Sum256(body)
		ctype := mime.TypeByExtension(path.Ext(name))
		if strings.HasPrefix(ctype, "text/") && !strings.Contains(ctype, "charset") {
			ctype += "; charset=utf-8"
		}
		set[name] = &Asset{Name: name, Hash: hex.EncodeToString(sum[:6]), ContentType: ctype, Body: body, Gz: Gzip(body)}
	}
	return set
}

// URL is the versioned URL of the asset name below root, which serves
// assets at root + "/~assets/".
func (set Assets) URL(root, name string) string {
	return root + "/~assets/" + set[name].Hash + "/" + name
}

// Serve answers rest ("{hash}/{name}"): immutable when the hash is the
// asset's, briefly cached when it is an older one. It reports false, having
// written nothing, when there is no such asset.
func (set Assets) Serve(w http.ResponseWriter, r *http.Request, rest string) bool {
	hash, name, _ := strings.Cut(rest, "/")
	a, ok := set[path.Clean(name)]
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", a.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	if hash == a.Hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, max-age=60")
	}
	var gz []byte
	if AcceptsGzip(r) {
		gz = a.Gz
	}
	WriteBody(w, r, `"`+a.Hash+`"`, a.Body, gz)
	return true
}

// WriteBody answers 200 with body (gz, its gzipped form, when not nil), or
// 304 when If-None-Match names its entity tag. The caller passes gz only
// when the client takes it (AcceptsGzip).
func WriteBody(w http.ResponseWriter, r *http.Request, etag string, body, gz []byte) {
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	if gz != nil {
		etag = strings.TrimSuffix(etag, `"`) + `-gz"`
	}
	h.Set("ETag", etag)
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if gz != nil {
		h.Set("Content-Encoding", "gzip")
		body = gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// etagMatches compares an If-None-Match list with etag weakly, as RFC
// 9110 §13.1.2 has it.
func etagMatches(list, etag string) bool {
	if list == "" {
		return false
	}
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}

// AcceptsGzip reports whether Accept-Encoding takes gzip (not at q=0).
func AcceptsGzip(r *http.Request) bool {
	rest := r.Header.Get("Accept-Encoding")
	for rest != "" {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if coding = strings.TrimSpace(coding); strings.EqualFold(coding, "gzip") || coding == "*" {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// HeaderGzip is "Content-Encoding: gzip" as a header value, shared: set it
// as h["Content-Encoding"] = HeaderGzip, never change it.
var HeaderGzip = []string{"gzip"}

// Gzip compresses b as tightly as gzip can, for assets compressed once,
// or is nil when that saves nothing worth having (gz.Tight).
func Gzip(b []byte) []byte { return gz.Tight(b) }
