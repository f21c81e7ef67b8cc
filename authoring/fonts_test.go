package authoring_test

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store"
)

func TestFontFormat(t *testing.T) {
	t.Parallel()
	for data, want := range map[string]string{"wOF2rest": "woff2", "wOFFrest": "woff", "OTTO": "", "": ""} {
		if got := authoring.FontFormat([]byte(data)); got != want {
			t.Errorf("FontFormat(%q) = %q, want %q", data, got, want)
		}
	}
}

// upload stores data as a file uploaded to the fixture's organization,
// declared size bytes long, and returns its key.
func (f *fixture) upload(t *testing.T, data []byte, size int64) string {
	t.Helper()
	u, _, err := f.db.CreateUpload(t.Context(), store.Upload{OrgID: f.space.OrgID, CreatedBy: f.userID, Kind: "customization_font", Name: "f.woff2", Size: size})
	if err != nil {
		t.Fatal(err)
	}
	key, err := blob.Dir{Path: f.blobs}.Put(t.Context(), data)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.db.FinishUpload(t.Context(), u.Key, key, size); err != nil {
		t.Fatal(err)
	}
	return u.Key
}

func TestFontFace(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	woff2 := f.upload(t, []byte("wOF2 font"), 9)
	for _, tc := range []struct {
		name, key string
		code      quire.Code // of the error, "" for none
		msg       string
	}{
		{"a WOFF2 font", woff2, "", ""},
		{"no such upload", "upload-nope", quire.CodeNotFound, "fontFaces[0].storageKey: "},
		{"not a font", f.upload(t, []byte("%PDF"), 4), quire.CodeInvalid, "fontFaces[0].storageKey: the file is not a WOFF or WOFF2 font"},
		{"too large", f.upload(t, []byte("wOF2"), authoring.MaxFontBytes+1), quire.CodeTooLarge, "fontFaces[0].storageKey: a font file is at most 4 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			face, err := f.author.FontFace(t.Context(), f.space.OrgID, "fontFaces[0].storageKey", 400, tc.key)
			if quire.ErrorCode(err) != tc.code {
				t.Fatalf("FontFace = %v, want code %q", err, tc.code)
			}
			if err != nil {
				if got := err.Error(); len(got) < len(tc.msg) || got[:len(tc.msg)] != tc.msg {
					t.Fatalf("FontFace = %q, want %q…", got, tc.msg)
				}
				return
			}
			if face.Weight != 400 || face.Format != "woff2" || face.Size != 9 || face.Blob == "" {
				t.Fatalf("FontFace = %+v", face)
			}
		})
	}
	// Another organization's upload is not found.
	boot, err := f.db.InitOrganization(t.Context(), "Other", "bob@example.com", "Bob")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.author.FontFace(t.Context(), boot.Organization.ID, "k", 400, woff2); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("FontFace of another organization's upload = %v, want not found", err)
	}
}

func TestCreateFont(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	face := store.FontFace{Weight: 700, Blob: "b", Format: "woff2", Size: 9}
	for _, tc := range []struct {
		name  string
		faces []store.FontFace
		code  quire.Code
	}{
		{"no regular face", []store.FontFace{face}, quire.CodePreconditionFailed},
		{"a regular face", []store.FontFace{face, {Weight: 400, Blob: "b", Format: "woff2", Size: 9}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			font, err := f.author.CreateFont(t.Context(), f.space.OrgID, "Serif", f.userID, tc.faces)
			if quire.ErrorCode(err) != tc.code {
				t.Fatalf("CreateFont = %v, want code %q", err, tc.code)
			}
			if err == nil && (font.Family != "Serif" || len(font.Faces) != 2) {
				t.Fatalf("CreateFont = %+v", font)
			}
		})
	}
}
