package site

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"net/http"
	"path"
	"strings"
)

//go:embed assets/site.css assets/site.js
var assetFiles embed.FS

// asset is an embedded file, compressed once.
type asset struct {
	name, hash, contentType string
	body, gz                []byte
}

// assetSet holds the embedded CSS and JavaScript by name.
type assetSet map[string]*asset

// loadAssets reads the embedded files; extraCSS (the code highlighting
// styles) is appended to site.css.
func loadAssets(extraCSS string) assetSet {
	set := assetSet{}
	for name, ctype := range map[string]string{"site.css": "text/css; charset=utf-8", "site.js": "text/javascript; charset=utf-8"} {
		body, err := assetFiles.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded at build time
		}
		if name == "site.css" && extraCSS != "" {
			body = append(append(body, '\n'), extraCSS...)
		}
		sum := sha256.Sum256(body)
		set[name] = &asset{name: name, hash: hex.EncodeToString(sum[:6]), contentType: ctype, body: body, gz: gzipped(body)}
	}
	return set
}

// urls are the versioned URLs of the assets below root.
func (set assetSet) urls(root string) assetURLs {
	return assetURLs{
		CSS: root + "/~assets/" + set["site.css"].hash + "/site.css",
		JS:  root + "/~assets/" + set["site.js"].hash + "/site.js",
	}
}

// serve answers rest ("{hash}/{name}"): immutable when the hash is the
// asset's, briefly cached when it is an older one.
func (set assetSet) serve(w http.ResponseWriter, r *http.Request, rest string) bool {
	hash, name, _ := strings.Cut(rest, "/")
	a, ok := set[path.Clean(name)]
	if !ok {
		return false
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	if hash == a.hash {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "public, max-age=60")
	}
	writeBody(w, r, `"`+a.hash+`"`, a.body, a.gz)
	return true
}

// gzipped compresses b, or is nil when that saves nothing worth having.
func gzipped(b []byte) []byte {
	if len(b) < 256 {
		return nil
	}
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	_, _ = zw.Write(b)
	_ = zw.Close()
	if out.Len() >= len(b) {
		return nil
	}
	return out.Bytes()
}
