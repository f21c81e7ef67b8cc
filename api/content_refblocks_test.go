package api_test

import (
	"net/http"
	"testing"
)

// A page's document holds GitBook's embeds, content references, figures,
// math, includes, OpenAPI blocks, adaptive content and prompts as their
// blocks, and writing it back in an authoring batch leaves the markdown as
// it was.
func TestPageDocumentKeepsReferenceBlocks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sp := e.crSpace(t)
	md := "# Blocks\n\n{% embed url=\"https://www.youtube.com/watch?v=x\" %}\nA video.\n{% endembed %}\n\n" +
		"{% content-ref url=\"https://x.example/a\" %}\n[https://x.example/a](https://x.example/a)\n{% endcontent-ref %}\n\n" +
		"<div align=\"left\"><figure><img src=\"https://i.example/a.png\" alt=\"A\" width=\"375\"><figcaption><p>A <strong>caption</strong></p></figcaption></figure> " +
		"<figure><img src=\"https://i.example/b.png\" alt=\"\"><figcaption></figcaption></figure></div>\n\n" +
		"$$\nE = mc^2\n$$\n\nInline $$a+b$$ math.\n\n{% include \".gitbook/includes/x.md\" %}\n\n" +
		"{% openapi-operation spec=\"petstore\" path=\"/pets\" method=\"get\" %}\n{% endopenapi-operation %}\n\n" +
		"{% if visitor.claims.plan == \"pro\" %}\nFor pro.\n{% endif %}\n\n" +
		"{% prompt description=\"Ask\" %}\n```markdown\nSummarize.\n```\n{% endprompt %}\n"
	ids := e.cmSeed(t, sp, insertPage("", md, "title", "Blocks"))
	page := "/v1/spaces/" + sp + "/content/page/" + ids["Blocks"]
	before := e.call(t, e.admin.token, "GET", page+"?format=markdown", nil).want(t, http.StatusOK).JSON(t)["markdown"]

	doc, _ := e.call(t, e.admin.token, "GET", page+"?format=document", nil).want(t, http.StatusOK).JSON(t)["document"].(map[string]any)
	for _, typ := range []string{"embed", "content-ref", "images", "math", "inline-math", "reusable-content", "openapi-operation", "if", "prompt"} {
		if found := findNodes(doc, func(n map[string]any) bool { return n["type"] == typ }); len(found) == 0 {
			t.Errorf("no %s node in the document: %v", typ, doc)
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
