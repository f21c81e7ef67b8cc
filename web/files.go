package web

import (
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/quiredocs/quire/content"
)

// inlineTypes are the types shown in the browser rather than downloaded.
var inlineTypes = map[string]bool{
	"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true, "image/avif": true,
	"image/bmp": true, "image/x-icon": true, "image/vnd.microsoft.icon": true, "image/svg+xml": true,
	"application/pdf": true, "text/plain": true, "text/csv": true, "text/markdown": true,
	"audio/mpeg": true, "audio/ogg": true, "audio/wav": true, "video/mp4": true, "video/webm": true, "video/ogg": true,
}

// FileType is the Content-Type and disposition a file stored as stored
// is served with: types a browser shows safely inline, anything else (HTML
// and scripts above all) as an attachment of no type, so that no page of
// the origin can load an uploaded file as a script or a style sheet.
func FileType(stored string) (ctype, disposition string) {
	mt, _, err := mime.ParseMediaType(stored)
	if err != nil || !inlineTypes[mt] {
		return "application/octet-stream", "attachment"
	}
	if strings.HasPrefix(mt, "text/") {
		return mt + "; charset=utf-8", "inline"
	}
	return mt, "inline"
}

// ServeFile answers the bytes of file f, after the caller set its caching
// headers: typed by FileType, named, tagged by its blob (answering ranges
// and If-None-Match), and sandboxed when it could be active (attachments and
// SVG).
func ServeFile(w http.ResponseWriter, r *http.Request, f *content.File, body io.ReadSeeker) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+f.Blob+`"`)
	ctype, disposition := FileType(f.ContentType)
	h.Set("Content-Type", ctype)
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}))
	if disposition == "attachment" || strings.HasPrefix(ctype, "image/svg+xml") {
		h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src data:; style-src 'unsafe-inline'")
	}
	http.ServeContent(w, r, "", time.Time{}, body)
}
