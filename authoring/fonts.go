package authoring

import (
	"bytes"
	"context"
	"io"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Custom fonts (issue 19): an organization's font families, each face a
// WOFF or WOFF2 file uploaded first and named by its storage key. A font
// keeps a regular face (weight 400): CreateFont refuses one without it, and
// store.DB.UpdateFont a change that removes it.

// MaxFontBytes bounds one font file.
const MaxFontBytes = 4 << 20

// FontFormat is the format of a font file by its signature: WOFF2 or WOFF,
// the reference's FontSource formats; "" for anything else.
func FontFormat(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("wOF2")):
		return "woff2"
	case bytes.HasPrefix(data, []byte("wOFF")):
		return "woff"
	}
	return ""
}

// FontContentType is the media type a face of format is served as.
func FontContentType(format string) string {
	switch format {
	case "woff2":
		return "font/woff2"
	case "woff":
		return "font/woff"
	}
	return ""
}

// FontFace makes the face of weight from the file uploaded to orgID under
// key: at most MaxFontBytes, a WOFF or WOFF2 font. Errors name field, the
// face's storage key.
func (a *Author) FontFace(ctx context.Context, orgID, field string, weight int, key string) (*store.FontFace, error) {
	u, err := a.DB.UploadedFile(ctx, orgID, key)
	if err != nil {
		return nil, quire.Errorf(quire.ErrorCode(err), "%s: %s", field, quire.ErrorMessage(err))
	}
	if u.Size > MaxFontBytes {
		return nil, quire.Errorf(quire.CodeTooLarge, "%s: a font file is at most %d MiB", field, MaxFontBytes>>20)
	}
	rc, err := a.Blobs.Open(ctx, u.Blob)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxFontBytes+1))
	if err != nil {
		return nil, err
	}
	format := FontFormat(data)
	if format == "" {
		return nil, quire.Errorf(quire.CodeInvalid, "%s: the file is not a WOFF or WOFF2 font", field)
	}
	return &store.FontFace{Weight: weight, Blob: u.Blob, Format: format, Size: u.Size}, nil
}

// CreateFont adds the font family of orgID, created by userID, with faces,
// one of them regular (weight 400).
func (a *Author) CreateFont(ctx context.Context, orgID, family, userID string, faces []store.FontFace) (*store.Font, error) {
	regular := false
	for _, f := range faces {
		regular = regular || f.Weight == 400
	}
	if !regular {
		return nil, quire.Errorf(quire.CodePreconditionFailed, "fontFaces: a face of weight 400 (regular) is required")
	}
	return a.DB.CreateFont(ctx, orgID, family, userID, faces)
}
