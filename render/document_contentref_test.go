package render

import "testing"

// contentRefTests are content references as Git Sync writes them.
var contentRefTests = []struct{ name, md, want string }{
	{"page", "{% content-ref url=\"guide.md\" %}\n[guide.md](guide.md)\n{% endcontent-ref %}\n", `content-ref{"ref":{"kind":"page","page":"p1"}}`},
	{"anchor in a page", "{% content-ref url=\"guide.md#setup\" %}\n[guide.md#setup](guide.md#setup)\n{% endcontent-ref %}\n",
		`content-ref{"ref":{"anchor":"setup","kind":"anchor","page":"p1"}}`},
	{"file", "{% content-ref url=\"/files/f1\" %}\n[f1](/files/f1)\n{% endcontent-ref %}\n", `content-ref{"ref":{"file":"f1","kind":"file"}}`},
	{"url", "{% content-ref url=\"https://x.example/a\" %}\n[https://x.example/a](https://x.example/a)\n{% endcontent-ref %}\n",
		`content-ref{"ref":{"kind":"url","url":"https://x.example/a"}}`},
	{"path as written", "{% content-ref url=\"spf-dkim.md\" %}\n[spf-dkim.md](spf-dkim.md)\n{% endcontent-ref %}\n\n" +
		"{% content-ref url=\"../meteo-furnishing/\" %}\n[meteo-furnishing](../meteo-furnishing/)\n{% endcontent-ref %}\n",
		`content-ref{"ref":{"kind":"url","url":"spf-dkim.md"}} content-ref{"ref":{"kind":"url","url":"../meteo-furnishing/"}}`},
	{"in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n{% content-ref url=\"guide.md\" %}\n[guide.md](guide.md)\n{% endcontent-ref %}\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"A"}[content-ref{"ref":{"kind":"page","page":"p1"}}]]`},
	{"tags as text", "\\{% content-ref url=\"a.md\" %}\n\n\\{% endcontent-ref %}\n", `paragraph["{% content-ref url=\"a.md\" %}"] paragraph["{% endcontent-ref %}"]`},
}

// contentRefReadTests are other markdown with content references.
var contentRefReadTests = []struct{ name, md, want string }{
	{"a page by its path", "{% content-ref url=\"guide.md\" %}\n[Guide](guide.md)\n{% endcontent-ref %}", `content-ref{"ref":{"kind":"page","page":"p1"}}`},
	{"the link's text is not kept", "{% content-ref url=\"https://x.example/a\" %}\n[How vision works](https://x.example/a)\n{% endcontent-ref %}",
		`content-ref{"ref":{"kind":"url","url":"https://x.example/a"}}`},
	{"on one line", "{% content-ref url=\"guias/\" %} [guias](guias/) {% endcontent-ref %}", `paragraph["{% content-ref url=\"guias/\" %} " link{"ref":{"kind":"url","url":"guias/"}}["guias"] " {% endcontent-ref %}"]`},
	{"without its end tag it is text", "{% content-ref url=\"a.md\" %}\n[a.md](a.md)",
		`paragraph["{% content-ref url=\"a.md\" %} " link{"ref":{"kind":"url","url":"a.md"}}["a.md"]]`},
	{"in a list item it is its link", "- {% content-ref url=\"guide.md\" %}\n  [Guide](guide.md)\n  {% endcontent-ref %}",
		`list-unordered[list-item[paragraph[link{"ref":{"kind":"page","page":"p1"}}["Guide"]]]]`},
	{"in a hint it is its link", "{% hint style=\"info\" %}\n{% content-ref url=\"guide.md\" %}\n[Guide](guide.md)\n{% endcontent-ref %}\n{% endhint %}",
		`hint{"style":"info"}[paragraph[link{"ref":{"kind":"page","page":"p1"}}["Guide"]]]`},
}

func TestContentRefRoundTrip(t *testing.T) {
	checkKind(t, outline, contentRefTests, contentRefReadTests)
}

func TestContentRefMarkdownErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"no ref", map[string]any{"object": "block", "type": "content-ref", "isVoid": true, "data": map[string]any{}},
			"document.nodes[0].data.ref: must refer to a page, a file, an anchor or a URL"},
		{"in a hint", block("hint", map[string]any{"style": "info"}, []any{map[string]any{"object": "block", "type": "content-ref", "isVoid": true,
			"data": map[string]any{"ref": map[string]any{"kind": "page", "page": "p1"}}}}), "document.nodes[0].nodes[0]: the schema allows no content-ref block here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
