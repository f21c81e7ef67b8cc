package api_test

import (
	"net/http"
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
}
