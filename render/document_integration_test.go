package render

import (
	"strings"
	"testing"
)

// integrationTests are integration blocks as Git Sync writes them.
var integrationTests = []struct{ name, md, want string }{
	{"integration", "{% @marketo/form %}\n", `integration{"block":"form","integration":"marketo","props":{}}`},
	{"in a hint", "{% hint style=\"info\" %}\n{% @mermaid/diagram %}\n{% endhint %}\n", `hint{"style":"info"}[integration{"block":"diagram","integration":"mermaid","props":{}}]`},
	{"in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n{% @a.b/c-d_e %}\n{% endtab %}\n{% endtabs %}\n", `tabs[tabs-item{"title":"A"}[integration{"block":"c-d_e","integration":"a.b","props":{}}]]`},
	// The reference validates no props but objects: see integration.
	{"with props it is text", "{% @arcade/embed flowId=\"oDMS1sZpPjnSFvnF01Ha\" url=\"https://app.arcade.software/share/oDMS1sZpPjnSFvnF01Ha\" %}\n",
		`paragraph["{% @arcade/embed flowId=\"oDMS1sZpPjnSFvnF01Ha\" url=\"https://app.arcade.software/share/oDMS1sZpPjnSFvnF01Ha\" %}"]`},
	{"tag as text", "\\{% @marketo/form %}\n", `paragraph["{% @marketo/form %}"]`},
}

// integrationReadTests are other markdown with integration blocks.
var integrationReadTests = []struct{ name, md, want string }{
	{"in a list item it is text", "- {% @marketo/form %}", `list-unordered[list-item[paragraph["{% @marketo/form %}"]]]`},
	{"in an expandable", "<details>\n\n<summary>T</summary>\n\n{% @marketo/form %}\n\n</details>", `expandable`},
	{"without a block it is text", "{% @marketo %}", `paragraph["{% @marketo %}"]`},
}

func TestIntegrationRoundTrip(t *testing.T) {
	checkKind(t, outline, integrationTests, integrationReadTests)
}

func TestIntegrationMarkdownErrors(t *testing.T) {
	ib := func(data map[string]any) map[string]any {
		return map[string]any{"object": "block", "type": "integration", "isVoid": true, "data": data}
	}
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"a number prop", ib(map[string]any{"integration": "a", "block": "b", "props": map[string]any{"n": 1.0}}), "document.nodes[0].data.props.n: only a string can be written"},
		{"a prop with a space", ib(map[string]any{"integration": "a", "block": "b", "props": map[string]any{"a b": "x"}}), `document.nodes[0].data.props: the name "a b" cannot be written`},
		{"an unfurled url", ib(map[string]any{"integration": "a", "block": "b", "props": map[string]any{}, "url": "https://x"}), "document.nodes[0].data.url: cannot be written"},
		{"no block", ib(map[string]any{"integration": "a", "props": map[string]any{}}), `document.nodes[0].data: integration and block must be names of letters, digits, "-", "_" and "."`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}

// TestIntegrationMarkdown: props a client sends are written as Git Sync
// writes them, in the order of their names.
func TestIntegrationMarkdown(t *testing.T) {
	doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "integration", "isVoid": true,
		"data": map[string]any{"integration": "mermaid", "block": "diagram", "props": map[string]any{"content": "graph TD\n  A[\"a\"] --> B & C", "b": ""}}}}}
	got, err := Markdown(doc)
	if want := "{% @mermaid/diagram b=\"\" content=\"graph TD&#10;  A[\\\"a\\\"] --> B &amp; C\" %}\n"; err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	tag, ok := docTag([]byte(strings.TrimSpace(got)))
	if !ok || tag.kind != kindIntegration || tag.attrs["content"] != "graph TD\n  A[\"a\"] --> B & C" || tag.attrs["b"] != "" {
		t.Errorf("reads back as %+v", tag)
	}
}
