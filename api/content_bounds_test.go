package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
)

// rawGet GETs path through the real router without the contract check,
// whose schema validator takes time exponential in a document's nesting.
func (e *env) rawGet(t *testing.T, token, path string) *response {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), "GET", path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, req)
	return &response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
}

// TestContentDocumentBounds: security findings 3 and 6. A batch writing a
// page past the bounds of the document form is 400 and changes nothing; a
// page stored past them before they were checked reads as a document with
// 200 (what is past the bounds is text) or a clean 400, never 500 nor an
// answer of unbounded size.
func TestContentDocumentBounds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	var done struct {
		Changes []struct {
			Page struct{ ID string } `json:"page"`
			Ref  string              `json:"ref"`
		} `json:"changes"`
	}
	e.call(t, e.admin.token, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
		insertPage("ok", "# OK\n\nFine.\n"), insertPage("deep", "x\n"), insertPage("table", "x\n"), insertPage("huge", "x\n"),
	}}).want(t, http.StatusOK).Decode(t, &done)
	ids := map[string]string{}
	for _, c := range done.Changes {
		ids[c.Ref] = c.Page.ID
	}
	before := e.revision(t, cr+"/content")

	quotes := strings.Repeat(">", 6000) + " x\n"                                                                    // finding 6
	table := "|a|b|c|d|\n|-|-|-|-|\n" + strings.Repeat("|1|2|3|4|\n", 80800)                                        // finding 3: 808 KB
	code := "```\n" + strings.Repeat("\n", 200_000) + "```\n"                                                       // 200,000 code lines
	padded := strings.Repeat("|h", 2000) + "|\n" + strings.Repeat("|-", 2000) + "|\n" + strings.Repeat("1\n", 5000) // 10 million cells
	for _, tc := range []struct {
		name    string
		changes []map[string]any
		want    string
	}{
		{"6,000 quotes", []map[string]any{insertPage("", quotes)}, "changes[0].document: markdown: blockquotes and lists may be nested at most 100 levels deep"},
		{"808 KB table", []map[string]any{
			{"operation": "update_page", "page": ids["ok"], "title": "Changed"},
			{"operation": "update_page", "page": ids["table"], "document": map[string]any{"markdown": table}},
		}, "changes[1].document: markdown: tables may hold at most 20000 cells"},
		{"padded table", []map[string]any{insertPage("", padded)}, "tables may hold at most 20000 cells"},
		{"code lines", []map[string]any{insertPage("", code)}, "may hold at most 100000 elements"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			e.author(t, e.admin.token, cr, tc.changes...).wantError(t, http.StatusBadRequest, tc.want)
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("refused in %v", d)
			}
			if after := e.revision(t, cr+"/content"); after.ID != before.ID {
				t.Errorf("the batch made revision %s", after.ID)
			}
		})
	}

	// Stored past the bounds, as before they were checked.
	if _, err := e.db.EditChangeRequest(t.Context(), spaceID, path.Base(cr), e.admin.id, func(now time.Time, head *content.Tree) (*content.Tree, error) {
		head.Pages[ids["deep"]].Markdown = quotes
		head.Pages[ids["table"]].Markdown = table
		head.Pages[ids["huge"]].Markdown = code
		return head, nil
	}); err != nil {
		t.Fatal(err)
	}
	page := cr + "/content/page/"
	for _, name := range []string{"deep", "table"} {
		r := e.rawGet(t, e.admin.token, page+ids[name]+"?format=document").want(t, http.StatusOK)
		if len(r.Body) > 2<<20 {
			t.Errorf("%s: a document of %d bytes", name, len(r.Body))
		}
		var p pageOut
		r.Decode(t, &p)
		if len(findNodes(p.Document, func(n map[string]any) bool { return n["type"] == "blockquote" })) > 100 {
			t.Errorf("%s: more than 100 blockquotes", name)
		}
		if len(findNodes(p.Document, func(n map[string]any) bool { return n["type"] == "table" })) > 0 {
			t.Errorf("%s: a table", name)
		}
	}
	tooLarge := "format: page \"" + ids["huge"] + "\" is too large for the document form"
	e.call(t, e.admin.token, "GET", page+ids["huge"]+"?format=document", nil).wantError(t, http.StatusBadRequest, tooLarge)
	e.call(t, e.admin.token, "GET", cr+"/content?format=document", nil).wantError(t, http.StatusBadRequest, tooLarge)
	e.call(t, e.admin.token, "GET", cr+"/content/pages?format=document", nil).wantError(t, http.StatusBadRequest, tooLarge)
	e.call(t, e.admin.token, "GET", page+ids["huge"], nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", cr+"/content", nil).want(t, http.StatusOK)

	// Read-only members read the same.
	reader := e.addUser(t, "read", "Rita Reader")
	e.rawGet(t, reader.token, page+ids["deep"]+"?format=document").want(t, http.StatusOK)
	e.call(t, reader.token, "GET", page+ids["huge"]+"?format=document", nil).wantError(t, http.StatusBadRequest, tooLarge)
}

// TestContentDocumentAnswerBound: the documents of one answer are at most
// revision.MaxAnswerDocumentBytes, though each page's is within bounds.
func TestContentDocumentAnswerBound(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	var changes []map[string]any
	for range 6 {
		changes = append(changes, insertPage("", "x\n"))
	}
	e.author(t, e.admin.token, cr, changes...).want(t, http.StatusOK)
	// 1 MiB of control characters, each 6 bytes of JSON ("\u0001"): six
	// pages of 6 MiB documents.
	if _, err := e.db.EditChangeRequest(t.Context(), spaceID, path.Base(cr), e.admin.id, func(now time.Time, head *content.Tree) (*content.Tree, error) {
		for _, p := range head.Pages {
			p.Markdown = strings.Repeat("\x01", 1<<20)
		}
		return head, nil
	}); err != nil {
		t.Fatal(err)
	}
	e.rawGet(t, e.admin.token, cr+"/content?format=document").wantError(t, http.StatusBadRequest, "format: the documents of these pages exceed 32 MiB in all")
	rev := e.revision(t, cr+"/content")
	for _, p := range rev.Pages {
		var got pageOut
		e.rawGet(t, e.admin.token, cr+"/content/page/"+p.ID+"?format=document").want(t, http.StatusOK).Decode(t, &got)
		if b, _ := json.Marshal(got.Document); len(b) < 6<<20 {
			t.Errorf("page %s: a document of %d bytes", p.ID, len(b))
		}
	}
}
