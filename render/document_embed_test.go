package render

import (
	"strings"
	"testing"
)

// outlineFragments is outline with each block's fragments after its
// nodes, as name{…}.
func outlineFragments(nodes []any) string {
	parts := make([]string, 0, len(nodes))
	for _, n := range nodes {
		m := n.(map[string]any)
		if m["object"] == "text" {
			parts = append(parts, outline([]any{m}))
			continue
		}
		s := outline([]any{withoutNodes(m)})
		if kids, ok := m["nodes"].([]any); ok {
			s += "[" + outlineFragments(kids) + "]"
		}
		if frags, ok := m["fragments"].([]any); ok && m["type"] != "table" {
			for _, f := range frags {
				f := f.(map[string]any)
				s += " " + f["fragment"].(string) + "{" + outlineFragments(f["nodes"].([]any)) + "}"
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func withoutNodes(m map[string]any) map[string]any {
	c := map[string]any{}
	for k, v := range m {
		if k != "nodes" {
			c[k] = v
		}
	}
	return c
}

// embedTests are embeds and files as Git Sync writes them.
var embedTests = []struct{ name, md, want string }{
	{"embed", "{% embed url=\"https://www.youtube.com/watch?v=2GcHRGpwGic\" %}\n", `embed{"url":"https://www.youtube.com/watch?v=2GcHRGpwGic"}`},
	{"embed with a caption", "{% embed url=\"https://modsproject.org\" %}\nLink URL a *Modsproject*.\n{% endembed %}\n",
		`embed{"url":"https://modsproject.org"} caption{paragraph["Link URL a " italic:"Modsproject" "."]}`},
	{"embeds with and without caption", "{% embed url=\"https://www.kali.org/tools/dsniff/\" %}\n\n{% embed url=\"https://www.mankier.com/5/hosts\" %}\nDNS hosts file format\n{% endembed %}\n",
		`embed{"url":"https://www.kali.org/tools/dsniff/"} embed{"url":"https://www.mankier.com/5/hosts"} caption{paragraph["DNS hosts file format"]}`},
	{"full width", "{% embed url=\"https://x.example/v\" fullWidth=\"true\" %}\n", `embed{"fullWidth":true,"url":"https://x.example/v"}`},
	{"url escaped", "{% embed url=\"https://x.example/?a=1&amp;b=\\\"2\\\"\" %}\n", `embed{"url":"https://x.example/?a=1&b=\"2\""}`},
	{"embed in a hint", "{% hint style=\"info\" %}\n{% embed url=\"https://x.example/v\" %}\n{% endhint %}\n", `hint{"style":"info"}[embed{"url":"https://x.example/v"}]`},
	{"embed in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n{% embed url=\"https://x.example/v\" %}\ncap\n{% endembed %}\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"A"}[embed{"url":"https://x.example/v"} caption{paragraph["cap"]}]]`},
	{"file", "{% file src=\"/files/f1\" %}\n", `file{"ref":{"file":"f1","kind":"file"}}`},
	{"file with a caption", "{% file src=\"/files/f1\" %}\nVídeo demostración\n{% endfile %}\n",
		`file{"ref":{"file":"f1","kind":"file"}} caption{paragraph["Vídeo demostración"]}`},
	{"file in an expandable", "<details>\n\n<summary>T</summary>\n\n{% file src=\"/files/f1\" %}\n\n</details>\n",
		`expandable expandable-title{paragraph["T"]} expandable-body{file{"ref":{"file":"f1","kind":"file"}}}`},
	{"tags as text", "\\{% embed url=\"https://x.example\" %}\n\n\\{% endembed %}\n\n\\{% file src=\"/files/f1\" %}\n",
		`paragraph["{% embed url=\"https://x.example\" %}"] paragraph["{% endembed %}"] paragraph["{% file src=\"/files/f1\" %}"]`},
}

// embedReadTests are other markdown with embeds and files.
var embedReadTests = []struct{ name, md, want string }{
	{"a file in the space, by its path", "{% file src=\"logo.png\" %}\nLogo\n{% endfile %}", `file{"ref":{"file":"f1","kind":"file"}} caption{paragraph["Logo"]}`},
	{"a file not in the space is text", "{% file src=\"../.gitbook/assets/x.pdf\" %}\nx\n{% endfile %}",
		`paragraph["{% file src=\"../.gitbook/assets/x.pdf\" %}"] paragraph["x"] paragraph["{% endfile %}"]`},
	{"embed in a list item is a link", "- {% embed url=\"https://x.example/v\" %}\n  cap\n  {% endembed %}",
		`list-unordered[list-item[paragraph[link{"ref":{"kind":"url","url":"https://x.example/v"}}["https://x.example/v"]] paragraph["cap"]]]`},
	{"embed in a quote is a link", "> {% embed url=\"https://x.example/v\" %}",
		`blockquote[paragraph[link{"ref":{"kind":"url","url":"https://x.example/v"}}["https://x.example/v"]]]`},
	{"embed in an expandable is a link", "<details>\n\n<summary>T</summary>\n\n{% embed url=\"https://x.example/v\" %}\n\n</details>",
		`expandable expandable-title{paragraph["T"]} expandable-body{paragraph[link{"ref":{"kind":"url","url":"https://x.example/v"}}["https://x.example/v"]]}`},
	{"an empty caption is none", "{% embed url=\"https://x.example/v\" %}\n{% endembed %}", `embed{"url":"https://x.example/v"}`},
	{"caption blocks as in a quote", "{% embed url=\"https://x.example/v\" %}\na\n\n```\nb\n```\n{% endembed %}",
		`embed{"url":"https://x.example/v"} caption{paragraph["a"] paragraph[code:"b"]}`},
	{"end tag in fenced code", "{% embed url=\"https://x.example/v\" %}\n```\n{% endembed %}\n```\n{% endembed %}",
		`embed{"url":"https://x.example/v"} caption{paragraph[code:"{% endembed %}"]}`},
	{"without a url it is text", "{% embed %}", `paragraph["{% embed %}"]`},
	{"an end tag alone is text", "{% endembed %}", `paragraph["{% endembed %}"]`},
	{"other fullWidth values are dropped", "{% embed url=\"https://x.example/v\" fullWidth=\"yes\" %}", `embed{"url":"https://x.example/v"}`},
}

func TestEmbedRoundTrip(t *testing.T) { checkKind(t, outlineFragments, embedTests, embedReadTests) }

// TestFileWithoutResolver: without a resolver, a file block's "/files/<id>",
// as Markdown writes it, is that file, so that it is written back as it was.
func TestFileWithoutResolver(t *testing.T) {
	for _, md := range []string{"{% file src=\"/files/f2\" %}\ncap\n{% endfile %}\n", "<img src=\"/files/f2\" alt=\"d\" class=\"gitbook-drawing\">\n"} {
		if got := outline(Document(md, nil)["nodes"].([]any)); !strings.Contains(got, `"ref":{"file":"f2","kind":"file"}`) {
			t.Errorf("Document(%q, nil) = %s", md, got)
		}
		if got := roundTrip(t, md, nil, nil); got != md {
			t.Errorf("Markdown(Document(%q, nil)) = %q", md, got)
		}
	}
	if got := outline(Document("{% file src=\"/files/a/b\" %}", nil)["nodes"].([]any)); got != `paragraph["{% file src=\"/files/a/b\" %}"]` {
		t.Errorf("a path below /files/ is a file: %s", got)
	}
}

func TestEmbedMarkdownErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"embed without a url", map[string]any{"object": "block", "type": "embed", "isVoid": true, "data": map[string]any{}}, "document.nodes[0].data.url: must be a string"},
		{"file of a url", map[string]any{"object": "block", "type": "file", "isVoid": true, "data": map[string]any{"ref": map[string]any{"kind": "url", "url": "x"}}},
			"document.nodes[0].data.ref: must refer to a file"},
		{"another fragment", map[string]any{"object": "block", "type": "embed", "isVoid": true, "data": map[string]any{"url": "x"},
			"fragments": []any{map[string]any{"object": "fragment", "fragment": "title", "nodes": []any{}}}}, "document.nodes[0].fragments[0]: only a caption fragment can be written"},
		{"embed in a list item", block("list-unordered", nil, []any{block("list-item", nil, []any{
			map[string]any{"object": "block", "type": "embed", "isVoid": true, "data": map[string]any{"url": "x"}}})}),
			"document.nodes[0].nodes[0].nodes[0]: the schema allows no embed block here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
