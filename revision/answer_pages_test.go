package revision_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

var links = wire.Links{PublicURL: "https://quire.example"}

// TestPageAnswers: the kept answers of a page and of the page list are the
// bytes of their wire shapes encoded afresh (the page list's markdown form
// is built from runs), in both formats, gzipped to the same bytes; a page
// past render's bounds fails the document form as invalid.
func TestPageAnswers(t *testing.T) {
	t.Parallel()
	f := newFixture(t) // guides, guides/install, big
	v := f.open(t)
	ctx := t.Context()
	tests := []struct {
		name               string
		page               string // "" for the page list
		document, metadata bool
		wantErr            string // the start of an invalid request's message; "" for none
	}{
		{"a page in markdown", "guides", false, true, ""},
		{"a page without metadata", "guides", false, false, ""},
		{"a page as documents", "guides", true, true, ""},
		{"a page past the document bounds", "big", true, true, `format: page "big" is too large for the document form`},
		{"the list in markdown", "", false, true, ""},
		{"the list without metadata", "", false, false, ""},
		{"the list as documents", "", true, false, `format: page "big" is too large for the document form`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a *revision.Answer
			var want any
			var err, wantErr error
			if tt.page == "" {
				a, err = f.reader.PageList(ctx, links, v, revision.NewFormat(tt.document, tt.metadata))
				var pages []wire.Page
				pages, wantErr = v.PagesJSON(links, revision.NewFormat(tt.document, tt.metadata))
				want = map[string]any{"pages": pages}
			} else {
				a, err = f.reader.PageAnswer(ctx, links, v, tt.page, revision.NewFormat(tt.document, tt.metadata))
				want, wantErr = v.PageJSON(links, tt.page, revision.NewFormat(tt.document, tt.metadata), true)
			}
			if tt.wantErr != "" {
				for _, err := range []error{err, wantErr} {
					if quire.ErrorCode(err) != quire.CodeInvalid || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %v, want invalid: %s", err, tt.wantErr)
					}
				}
				return
			}
			if err != nil || wantErr != nil {
				t.Fatal(err, wantErr)
			}
			wantBody, err := revision.EncodeJSON(want)
			if err != nil {
				t.Fatal(err)
			}
			body := bytes.Join(a.Body, nil)
			if diff := cmp.Diff(string(wantBody), string(body)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if gz, _ := a.Gzipped(); gz != nil {
				zr, err := gzip.NewReader(bytes.NewReader(bytes.Join(gz, nil)))
				if err != nil {
					t.Fatal(err)
				}
				if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, body) {
					t.Errorf("gzipped body: %v, or not the body", err)
				}
			}
		})
	}
}

// TestRevisionAnswer: a revision's answer is its head with the page list
// spliced in, and the change request whose merge made it.
func TestRevisionAnswer(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.open(t)
	ctx := t.Context()
	merged, err := f.reader.MergedFrom(ctx, links, v)
	if err != nil || merged == nil {
		t.Fatalf("MergedFrom = %v, %v; want the change request merged", merged, err)
	}
	for _, metadata := range []bool{true, false} {
		parts, err := f.reader.RevisionAnswer(ctx, links, v, revision.NewFormat(false, metadata))
		if err != nil {
			t.Fatal(err)
		}
		rev := links.RevisionHead(v.Space, v.Revision, v.Index().Files, merged)
		if rev.Pages, err = v.PagesJSON(links, revision.NewFormat(false, metadata)); err != nil {
			t.Fatal(err)
		}
		want, err := revision.EncodeJSON(rev)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(bytes.Join(parts, nil))); diff != "" {
			t.Errorf("metadata %v: (-want +got):\n%s", metadata, diff)
		}
	}
	if _, err := f.reader.RevisionAnswer(ctx, links, v, revision.NewFormat(true, true)); quire.ErrorCode(err) != quire.CodeInvalid {
		t.Errorf("RevisionAnswer as documents: %v, want invalid (big is past the bounds)", err)
	}
	first, err := f.reader.Open(ctx, f.space, v.Revision.Parents[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	if merged, err := f.reader.MergedFrom(ctx, links, first); merged != nil || err != nil {
		t.Errorf("MergedFrom of the first revision = %v, %v; want none", merged, err)
	}
}
