package revision_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// TestFileList: a revision's files by name, a page at a time, each with
// its download address at the revision.
func TestFileList(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.open(t)
	file := v.FileJSON(links, v.Tree.Files["f1"])
	wantFile := wire.File{ID: "f1", Name: "logo.png", ContentType: "image/png",
		DownloadURL: "https://quire.example/v1/spaces/" + f.space.ID + "/revisions/" + v.Revision.ID + "/files/f1/download"}
	if diff := cmp.Diff(wantFile, file); diff != "" {
		t.Errorf("FileJSON (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wire.List[wire.File]{Items: []wire.File{wantFile}, Count: 1}, v.FileList(links, store.Page{Limit: 10})); diff != "" {
		t.Errorf("FileList (-want +got):\n%s", diff)
	}
}

// TestDocumentAnswer: a page's document ends with a newline; one past
// render's bounds is invalid.
func TestDocumentAnswer(t *testing.T) {
	t.Parallel()
	v := newFixture(t).open(t)
	tests := []struct {
		page    string
		wantErr string
	}{
		{"install", ""},
		{"big", `page "big" is too large for the document form`},
	}
	for _, tt := range tests {
		body, err := v.DocumentAnswer(tt.page)
		if tt.wantErr != "" {
			if quire.ErrorCode(err) != quire.CodeInvalid || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: %v, want invalid: %s", tt.page, err, tt.wantErr)
			}
			continue
		}
		doc, derr := v.Document(tt.page)
		if err != nil || derr != nil || !strings.HasSuffix(string(body), "\n") || !json.Valid(body) || string(body) != string(doc)+"\n" {
			t.Errorf("%s: %q, %v; want the document and a newline", tt.page, body, err)
		}
	}
}
