package revision_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// TestPDFSource: what a PDF prints is opened by ids (a deleted space, or a
// change request not of the space, is not found), titled by the space and
// subtitled by the change request, its pages linked to the app.
func TestPDFSource(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	cr, err := f.db.CreateChangeRequest(ctx, f.space.ID, "Fix typos", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	untitled, err := f.db.CreateChangeRequest(ctx, f.space.ID, "", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, changeRequest, subtitle string
		code                          quire.Code
	}{
		{"the space's content", "", "", ""},
		{"a change request's", cr.ID, "Change request #" + strconv.Itoa(cr.Number) + ": Fix typos", ""},
		{"one without a subject", untitled.ID, "Change request #" + strconv.Itoa(untitled.Number), ""},
		{"no such change request", "nope", "", quire.CodeNotFound},
	}
	for _, tt := range tests {
		v, err := f.reader.OpenPrinted(ctx, f.space.ID, f.space.RevisionID, tt.changeRequest)
		if quire.ErrorCode(err) != tt.code {
			t.Errorf("%s: %v, want code %q", tt.name, err, tt.code)
			continue
		}
		if err != nil {
			continue
		}
		src := v.PDFSource("https://q.example", nil)
		if src.Title != "Docs" || src.Subtitle != tt.subtitle || src.Revision != f.space.RevisionID {
			t.Errorf("%s: title %q, subtitle %q, revision %q; want Docs, %q, %q", tt.name, src.Title, src.Subtitle, src.Revision,
				tt.subtitle, f.space.RevisionID)
		}
		if u := src.PageURL("install", "x"); !strings.HasPrefix(u, "https://q.example/s/"+f.space.ID+"/") || !strings.HasSuffix(u, "#x") {
			t.Errorf("%s: page URL %q", tt.name, u)
		}
		for page, code := range map[string]quire.Code{"install": "", "guides": "", "nope": quire.CodeNotFound} {
			if err := v.CheckPrintedPage(page); quire.ErrorCode(err) != code {
				t.Errorf("%s: printing from %s: %v, want code %q", tt.name, page, err, code)
			}
		}
		if _, err := src.OpenFile(ctx, v.Tree.Files["f1"]); err == nil {
			t.Errorf("%s: a file opened without a blob store", tt.name)
		}
	}
	if err := f.db.DeleteSpace(ctx, f.space.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := f.reader.OpenPrinted(ctx, f.space.ID, f.space.RevisionID, ""); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("deleted space: %v, want not found", err)
	}
}
