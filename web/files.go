package web

import (
	"mime"
	"strings"
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
// and scripts above all) as an attachment.
func FileType(stored string) (ctype, disposition string) {
	mt, params, err := mime.ParseMediaType(stored)
	if err != nil || mt == "" {
		return "application/octet-stream", "attachment"
	}
	if !inlineTypes[mt] {
		return mime.FormatMediaType(mt, params), "attachment"
	}
	if strings.HasPrefix(mt, "text/") {
		return mt + "; charset=utf-8", "inline"
	}
	return mt, "inline"
}
