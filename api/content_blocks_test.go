package api_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPageDocumentKeepsGitBookBlocks (issue 30): a page holding GitBook's
// blocks answers them in format=document as the reference's block nodes,
// not as paragraphs of their tags, and that document written back through
// an authoring batch leaves the page's markdown as it was.
func TestPageDocumentKeepsGitBookBlocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.crSpace(t)
	md := "# Blocks\n\n{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n\n" +
		"{% tabs %}\n{% tab title=\"One\" %}\nFirst.\n{% endtab %}\n\n{% tab title=\"Two\" %}\nSecond.\n{% endtab %}\n{% endtabs %}\n\n" +
		"<details>\n\n<summary>More</summary>\n\nHidden.\n\n</details>\n"
	ids := e.cmSeed(t, sp, insertPage("", md, "title", "Blocks"))
	page := "/v1/spaces/" + sp + "/content/page/" + ids["Blocks"]
	before := e.call(t, e.admin.token, "GET", page+"?format=markdown", nil).want(t, http.StatusOK).JSON(t)["markdown"]

	doc, _ := e.call(t, e.admin.token, "GET", page+"?format=document", nil).want(t, http.StatusOK).JSON(t)["document"].(map[string]any)
	for _, want := range []struct{ typ, field, value string }{
		{"hint", "style", "warning"},
		{"tabs", "", ""},
		{"tabs-item", "title", "One"},
		{"expandable", "", ""},
	} {
		found := findNodes(doc, func(n map[string]any) bool { return n["object"] == "block" && n["type"] == want.typ })
		if len(found) == 0 {
			t.Fatalf("no %s block in the document: %v", want.typ, doc)
		}
		if want.field != "" {
			if data, _ := found[0]["data"].(map[string]any); data[want.field] != want.value {
				t.Errorf("%s block data %v, want %s %q", want.typ, found[0]["data"], want.field, want.value)
			}
		}
	}

	cr := e.cmNewCR(t, e.admin.token, sp)
	e.author(t, e.admin.token, cr, map[string]any{"operation": "update_page", "page": ids["Blocks"],
		"document": map[string]any{"document": doc}}).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, cr)
	after := e.call(t, e.admin.token, "GET", page+"?format=markdown", nil).want(t, http.StatusOK).JSON(t)["markdown"]
	if after != before {
		t.Errorf("markdown after writing the document back:\n%v\nwant\n%v", after, before)
	}

	// Every kind of render's corpus: one page each, their documents written
	// back in one authoring batch, each page's markdown as it was.
	paths, err := filepath.Glob(filepath.Join("..", "render", "testdata", "kinds", "*.md"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("corpus: %v, %d files", err, len(paths))
	}
	var inserts []map[string]any
	titles := map[string]string{}
	for _, p := range paths {
		switch filepath.Base(p) {
		case "file.md", "drawing.md": // they show files of render's tests (/files/f1), not of this space: text here
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		title := "Kind " + strings.TrimSuffix(filepath.Base(p), ".md")
		titles[title] = p
		inserts = append(inserts, insertPage("", string(b), "title", title))
	}
	ids = e.cmSeed(t, sp, inserts...)
	befores := map[string]any{}
	var updates []map[string]any
	for title := range titles {
		page := "/v1/spaces/" + sp + "/content/page/" + ids[title]
		befores[title] = e.call(t, e.admin.token, "GET", page+"?format=markdown", nil).want(t, http.StatusOK).JSON(t)["markdown"]
		doc := e.call(t, e.admin.token, "GET", page+"?format=document", nil).want(t, http.StatusOK).JSON(t)["document"]
		updates = append(updates, map[string]any{"operation": "update_page", "page": ids[title], "document": map[string]any{"document": doc}})
	}
	cr = e.cmNewCR(t, e.admin.token, sp)
	e.author(t, e.admin.token, cr, updates...).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, cr)
	for title, p := range titles {
		page := "/v1/spaces/" + sp + "/content/page/" + ids[title]
		if after := e.call(t, e.admin.token, "GET", page+"?format=markdown", nil).want(t, http.StatusOK).JSON(t)["markdown"]; after != befores[title] {
			t.Errorf("%s: markdown after writing the document back:\n%v\nwant\n%v", p, after, befores[title])
		}
	}
}
