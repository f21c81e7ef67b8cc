package render

import "testing"

// mathTests are math as Git Sync writes it.
var mathTests = []struct{ name, md, want string }{
	{"block", "$$\ns = \\sqrt{\\frac{1}{N-1} \\sum_{i=1}^N (x_i - \\overline{x})^2}\n$$\n",
		`math{"formula":"s = \\sqrt{\\frac{1}{N-1} \\sum_{i=1}^N (x_i - \\overline{x})^2}"}`},
	{"block of lines", "$$\na &= b \\\\\nc &= *d*\n$$\n", `math{"formula":"a &= b \\\\\nc &= *d*"}`},
	{"empty block", "$$\n$$\n", `math{"formula":""}`},
	{"inline", "The mean is $$\\bar{x} = \\frac{1}{n}$$, *and* $$y_1 * y_2$$ too.\n",
		`paragraph["The mean is " inline-math{"formula":"\\bar{x} = \\frac{1}{n}"} ", " italic:"and" " " inline-math{"formula":"y_1 * y_2"} " too."]`},
	{"inline alone is kept inline", "*$$x$$*\n", `paragraph[inline-math{"formula":"x"}]`},
	{"in a list item", "- $$\n  x^2\n  $$\n", `list-unordered[list-item[math{"formula":"x^2"}]]`},
	{"in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n$$\nx\n$$\n{% endtab %}\n{% endtabs %}\n", `tabs[tabs-item{"title":"A"}[math{"formula":"x"}]]`},
	{"dollars as text", "It costs \\$\\$5, or \\$\\$ alone, and $5.\n\n\\$\\$\n", `paragraph["It costs $$5, or $$ alone, and $5."] paragraph["$$"]`},
}

// mathReadTests are other markdown with math.
var mathReadTests = []struct{ name, md, want string }{
	{"alone on its line it is a block", "$$f(x) = x * e^{2 pi i \\xi x}$$", `math{"formula":"f(x) = x * e^{2 pi i \\xi x}"}`},
	{"left open it runs to the end", "$$\nx\n\ny", `math{"formula":"x\n\ny"}`},
	{"in a hint it is inline", "{% hint style=\"info\" %}\n$$\na\nb\n$$\n{% endhint %}", `hint{"style":"info"}[paragraph[inline-math{"formula":"a b"}]]`},
	{"in a hint, an empty block is its text", "{% hint style=\"info\" %}\n$$\n$$\n{% endhint %}", `hint{"style":"info"}[paragraph["$$$$"]]`},
	{"in a quote it is inline", "> $$x$$", `blockquote[paragraph[inline-math{"formula":"x"}]]`},
	{"in a code span it is code", "`$$x$$`", `paragraph[code:"$$x$$"]`},
	{"empty, blank or three dollars are text", "$$$$ $$ $$ $$$x$$ $$x$$$", `paragraph["$$$$ $$ $$ $$$x$$ $$x$$$"]`},
	{"in a link it is text", "[see $$x$$](https://x.example/a)", `paragraph[link{"ref":{"kind":"url","url":"https://x.example/a"}}["see $$x$$"]]`},
	{"in a table", "| a |\n| - |\n| $$x\\|y$$ |", `table{"definition":{"c0":{"id":"c0","textAlignment":"left","title":"a","type":"text"}},"records":{"r0":{"orderIndex":"00000000","values":{"c0":"r0-c0"}}},"view":{"columns":["c0"],"hideHeader":false,"type":"grid"}}`},
	{"marks around it mark none", "**$$x$$ a**", `paragraph[inline-math{"formula":"x"} bold:" a"]`},
	{"it does not interrupt a paragraph", "a\n$$\nb\n$$", `paragraph["a $$ b $$"]`},
}

func TestMathRoundTrip(t *testing.T) { checkKind(t, outline, mathTests, mathReadTests) }

func TestMathMarkdownErrors(t *testing.T) {
	para := func(f any) map[string]any {
		return block("paragraph", nil, []any{map[string]any{"object": "inline", "type": "inline-math", "isVoid": true, "data": map[string]any{"formula": f}}})
	}
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"no formula", map[string]any{"object": "block", "type": "math", "isVoid": true, "data": map[string]any{}}, "document.nodes[0].data.formula: must be a string"},
		{"a line of $$", map[string]any{"object": "block", "type": "math", "isVoid": true, "data": map[string]any{"formula": "a\n$$\nb"}},
			`document.nodes[0].data.formula: a line of "$$" cannot be written`},
		{"in a hint", block("hint", map[string]any{"style": "info"}, []any{map[string]any{"object": "block", "type": "math", "isVoid": true, "data": map[string]any{"formula": "x"}}}),
			"document.nodes[0].nodes[0]: the schema allows no math block here"},
		{"inline with a line break", para("a\nb"), `document.nodes[0].nodes[0].data.formula: inline math cannot be blank, hold a line break or "$$", or start or end with "$"`},
		{"inline empty", para(""), `document.nodes[0].nodes[0].data.formula: inline math cannot be blank, hold a line break or "$$", or start or end with "$"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
