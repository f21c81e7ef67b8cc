package render

import "testing"

// promptTests are prompts as Git Sync writes them.
var promptTests = []struct{ name, md, want string }{
	{"prompt", "{% prompt description=\"Example prompt\" icon=\"rectangle-terminal\" defaultExpanded=\"full\" %}\n```markdown\nSummarize the main changes.\n\n- Be short.\n```\n{% endprompt %}\n",
		`prompt{"defaultExpanded":"full","description":"Example prompt","icon":"rectangle-terminal"}[code{"syntax":"markdown"}[code-line["Summarize the main changes."] code-line[""] code-line["- Be short."]]]`},
	{"description alone", "{% prompt description=\"Open a change request.\" %}\n```\nx\n```\n{% endprompt %}\n", `prompt{"description":"Open a change request."}[code[code-line["x"]]]`},
	{"open in AI providers", "{% prompt description=\"d\" openInAIProviders=\"false\" defaultExpanded=\"partial\" %}\n```markdown\nx\n```\n{% endprompt %}\n",
		`prompt{"defaultExpanded":"partial","description":"d","openInAIProviders":false}[code{"syntax":"markdown"}[code-line["x"]]]`},
	{"code title", "{% prompt description=\"d\" %}\n{% code title=\"p.md\" %}\n```markdown\nx\n```\n{% endcode %}\n{% endprompt %}\n",
		`prompt{"description":"d"}[code{"syntax":"markdown","title":"p.md"}[code-line["x"]]]`},
	{"end tag in its code", "{% prompt description=\"d\" %}\n```\n{% endprompt %}\n```\n{% endprompt %}\n", `prompt{"description":"d"}[code[code-line["{% endprompt %}"]]]`},
	{"in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n{% prompt description=\"d\" %}\n```\nx\n```\n{% endprompt %}\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"A"}[prompt{"description":"d"}[code[code-line["x"]]]]]`},
	{"tags as text", "\\{% prompt description=\"d\" %}\n\n\\{% endprompt %}\n", `paragraph["{% prompt description=\"d\" %}"] paragraph["{% endprompt %}"]`},
}

// promptReadTests are other markdown with prompts.
var promptReadTests = []struct{ name, md, want string }{
	{"a blank line after its tag", "{% prompt description=\"Example prompt\" icon=\"rectangle-terminal\" defaultExpanded=\"full\" %}\n\n```markdown\nx\n```\n{% endprompt %}",
		`prompt{"defaultExpanded":"full","description":"Example prompt","icon":"rectangle-terminal"}[code{"syntax":"markdown"}[code-line["x"]]]`},
	{"without a description it is text", "{% prompt %}\n```\nx\n```\n{% endprompt %}", `paragraph["{% prompt %}"] code[code-line["x"]] paragraph["{% endprompt %}"]`},
	{"text in it is text", "{% prompt description=\"d\" %}Explain this{% endprompt %}", `paragraph["{% prompt description=\"d\" %}Explain this{% endprompt %}"]`},
	{"a paragraph in it is text", "{% prompt description=\"d\" %}\nExplain this\n{% endprompt %}", `paragraph["{% prompt description=\"d\" %}"] paragraph["Explain this"] paragraph["{% endprompt %}"]`},
	{"another value is text", "{% prompt description=\"d\" defaultExpanded=\"some\" %}\n```\nx\n```\n{% endprompt %}",
		`paragraph["{% prompt description=\"d\" defaultExpanded=\"some\" %}"] code[code-line["x"]] paragraph["{% endprompt %}"]`},
	{"in a hint it is text", "{% hint style=\"info\" %}\n{% prompt description=\"d\" %}\n```\nx\n```\n{% endprompt %}\n{% endhint %}",
		`hint{"style":"info"}[paragraph["{% prompt description=\"d\" %}"] paragraph[code:"x"] paragraph["{% endprompt %}"]]`},
}

func TestPromptRoundTrip(t *testing.T) { checkKind(t, outline, promptTests, promptReadTests) }

func TestPromptMarkdownErrors(t *testing.T) {
	code := block("code", nil, []any{block("code-line", nil, []any{textNode(leaf("x", nil))})})
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"no description", block("prompt", nil, []any{code}), "document.nodes[0].data.description: must be a string"},
		{"a paragraph", block("prompt", map[string]any{"description": "d"}, []any{block("paragraph", nil, []any{textNode(leaf("x", nil))})}), "document.nodes[0].nodes[0]: a prompt holds one code block"},
		{"two code blocks", block("prompt", map[string]any{"description": "d"}, []any{code, code}), "document.nodes[0].nodes: a prompt holds one code block"},
		{"another default", block("prompt", map[string]any{"description": "d", "defaultExpanded": "all"}, []any{code}), "document.nodes[0].data.defaultExpanded: cannot be written"},
		{"in a hint", block("hint", map[string]any{"style": "info"}, []any{block("prompt", map[string]any{"description": "d"}, []any{code})}),
			"document.nodes[0].nodes[0]: the schema allows no prompt block here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
