package render

import "testing"

// ifTests are adaptive content as Git Sync writes it.
var ifTests = []struct{ name, md, want string }{
	{"if", "{% if visitor.claims.unsigned.plan === \"pro\" %}\nSolo pro\n{% endif %}\n",
		`if{"expression":"visitor.claims.unsigned.plan === \"pro\""}[paragraph["Solo pro"]]`},
	{"blocks", "{% if visitor.claims.unsigned.audience === \"developer\" %}\n{% hint style=\"info\" %}\nDeveloper view.\n{% endhint %}\n\n## Next\n\n- a\n{% endif %}\n",
		`if{"expression":"visitor.claims.unsigned.audience === \"developer\""}[hint{"style":"info"}[paragraph["Developer view."]] heading-2["Next"] list-unordered[list-item[paragraph["a"]]]]`},
	{"top-level blocks in it", "{% if visitor.claims.beta %}\n<details>\n\n<summary>T</summary>\n\nx\n\n</details>\n\n![i](https://i.example/a.png)\n{% endif %}\n",
		`if{"expression":"visitor.claims.beta"}[expandable images[image{"alt":"i","ref":{"kind":"url","url":"https://i.example/a.png"}}]]`},
	{"nested", "{% if a %}\n{% if b %}\nx\n{% endif %}\n{% endif %}\n", `if{"expression":"a"}[if{"expression":"b"}[paragraph["x"]]]`},
	{"empty", "{% if a %}\n{% endif %}\n", `if{"expression":"a"}[]`},
	{"tags as text", "\\{% if a %}\n\n\\{% endif %}\n", `paragraph["{% if a %}"] paragraph["{% endif %}"]`},
}

// ifReadTests are other markdown with adaptive content.
var ifReadTests = []struct{ name, md, want string }{
	{"blank lines inside", "{% if a %}\n\nx\n\n{% endif %}", `if{"expression":"a"}[paragraph["x"]]`},
	{"without its end tag it is text", "{% if a %}\nx", `paragraph["{% if a %} x"]`},
	{"without an expression it is text", "{% if %}\nx\n{% endif %}", `paragraph["{% if %} x {% endif %}"]`},
	{"in a list item it is text", "- {% if a %}\n  x\n  {% endif %}", `list-unordered[list-item[paragraph["{% if a %}"] paragraph["x"] paragraph["{% endif %}"]]]`},
	{"in a hint it is text", "{% hint style=\"info\" %}\n{% if a %}\nx\n{% endif %}\n{% endhint %}",
		`hint{"style":"info"}[paragraph["{% if a %}"] paragraph["x"] paragraph["{% endif %}"]]`},
	{"end tag in fenced code", "{% if a %}\n```\n{% endif %}\n```\n{% endif %}", `if{"expression":"a"}[code[code-line["{% endif %}"]]]`},
}

func TestIfRoundTrip(t *testing.T) { checkKind(t, outline, ifTests, ifReadTests) }

func TestIfMarkdownErrors(t *testing.T) {
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"no expression", block("if", nil, nil), `document.nodes[0].data.expression: must be one line, not blank, without "%}" or white space at its ends`},
		{"two lines", block("if", map[string]any{"expression": "a\nb"}, nil), `document.nodes[0].data.expression: must be one line, not blank, without "%}" or white space at its ends`},
		{"in a tab", block("tabs", nil, []any{block("tabs-item", map[string]any{"title": "A"}, []any{block("if", map[string]any{"expression": "a"}, nil)})}),
			"document.nodes[0].nodes[0].nodes[0]: the schema allows no if block here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
