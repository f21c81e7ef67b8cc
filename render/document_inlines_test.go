package render

import (
	"strings"
	"testing"
)

// inlineTests are markdown with expressions, buttons and mentions, as Git
// Sync writes them, and the outline of its document; Markdown writes the
// document back byte for byte.
var inlineTests = []struct{ name, md, want string }{
	{"expression", "The <code class=\"expression\">space.vars.PRODUCT</code> server.\n",
		`paragraph["The " expression{"expression":"space.vars.PRODUCT"} " server."]`},
	{"expression escaped", "<code class=\"expression\">a \\* b_c \\<d></code>\n", `paragraph[expression{"expression":"a * b_c <d>"}]`},
	{"expression in a table", "| a |\n| --- |\n| <code class=\"expression\">space.vars.x</code> |\n",
		`table{"definition":{"c0":{"id":"c0","textAlignment":"left","title":"a","type":"text"}},"records":{"r0":{"orderIndex":"00000000","values":{"c0":"r0-c0"}}},"view":{"columns":["c0"],"hideHeader":false,"type":"grid"}}`},
	{"mention", "See [setup.md](setup.md \"mention\").\n", `paragraph["See " mention{"ref":{"kind":"url","url":"setup.md"}} "."]`},
	{"mention of a page in a folder", "[spawn.md](../guides/spawn.md \"mention\")\n", `paragraph[mention{"ref":{"kind":"url","url":"../guides/spawn.md"}}]`},
	{"mention in a hint", "{% hint style=\"info\" %}\nRead [a.md](a.md \"mention\")\n{% endhint %}\n", `hint{"style":"info"}[paragraph["Read " mention{"ref":{"kind":"url","url":"a.md"}}]]`},
	{"icon", "## <i class=\"fa-lock\">:lock:</i> Sync\n", `heading-2[icon{"icon":"lock"} " Sync"]`},
	{"icons side by side", "<i class=\"fa-list-timeline\">:list-timeline:</i><i class=\"fa-a&#x26;b\">:a&b:</i>\n", `paragraph[icon{"icon":"list-timeline"} icon{"icon":"a&b"}]`},
	{"tags as text", "\\<code class=\"expression\">x\\</code>\n", `paragraph["<code class=\"expression\">x</code>"]`},
}

// inlineReadTests are other markdown with those forms.
var inlineReadTests = []struct{ name, md, want string }{
	{"a button is its text (see the note on buttons)", "<a href=\"https://example.com/\" class=\"button primary\" data-icon=\"rocket\">Install</a>\n",
		`paragraph["<a href=\"https://example.com/\" class=\"button primary\" data-icon=\"rocket\">Install</a>"]`},
	{"mention resolved", "[x](guide.md \"mention\")", `paragraph[mention{"ref":{"kind":"page","page":"p1"}}]`},
	{"mention of an anchor", "[x](guide.md#setup \"mention\")", `paragraph[mention{"ref":{"anchor":"setup","kind":"anchor","page":"p1"}}]`},
	{"expression in bold is not bold", "**<code class=\"expression\">x</code> y**", `paragraph[expression{"expression":"x"} bold:" y"]`},
	{"other code classes are text", "<code class=\"x\">y</code>", `paragraph["<code class=\"x\">y</code>"]`},
	{"an icon whose text is not its name is text", "<i class=\"fa-lock\">key</i>", `paragraph["<i class=\"fa-lock\">key</i>"]`},
	{"other classes are text", "<i class=\"lock\">:lock:</i>", `paragraph["<i class=\"lock\">:lock:</i>"]`},
	{"unclosed expression", "<code class=\"expression\">x", `paragraph["<code class=\"expression\">x"]`},
	{"markup in an expression is its text", "<code class=\"expression\">*a*</code>", `paragraph[expression{"expression":"a"}]`},
	{"expression in a link is text", "[<code class=\"expression\">x</code>](y)", `paragraph[link{"ref":{"kind":"url","url":"y"}}["<code class=\"expression\">x</code>"]]`},
}

func TestInlinesRoundTrip(t *testing.T) { checkKind(t, outline, inlineTests, inlineReadTests) }

// TestButtonMarkdown checks that a button a client sends is written as Git
// Sync writes it (Document keeps it as text: see the note on buttons).
func TestButtonMarkdown(t *testing.T) {
	for _, tt := range []struct{ data, want string }{
		{`{"label":"Install","kind":"primary","icon":"rocket","ref":{"kind":"url","url":"https://example.com/"}}`,
			"<a href=\"https://example.com/\" class=\"button primary\" data-icon=\"rocket\">Install</a>\n"},
		{`{"label":"a <b>","kind":"secondary","size":"large","ref":{"kind":"page","page":"p1"}}`,
			"<a href=\"/pages/p1\" class=\"button secondary\" data-size=\"large\">a \\<b\\></a>\n"},
		{`{"label":"q","kind":"primary","ref":{"kind":"url","url":"https://x.example/?a=1&b=\"2\""}}`,
			"<a href=\"https://x.example/?a=1&#x26;b=&#x22;2&#x22;\" class=\"button primary\">q</a>\n"},
	} {
		doc := decodeJSON(t, `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"button","isVoid":true,"data":`+tt.data+`}]}]}`)
		if got, err := Markdown(doc); err != nil || got != tt.want {
			t.Errorf("Markdown of button %s = %q, %v; want %q", tt.data, got, err, tt.want)
		}
	}
}

// TestInlinesMarkdownRefuses checks that an inline markdown cannot write is
// an error naming its data, not dropped.
func TestInlinesMarkdownRefuses(t *testing.T) {
	for _, tt := range []struct{ inline, want string }{
		{`{"object":"inline","type":"button","isVoid":true,"data":{"label":"x","kind":"primary","action":{"action":"ask"}}}`, "document.nodes[0].nodes[0].data.action: "},
		{`{"object":"inline","type":"button","isVoid":true,"data":{"label":"x","kind":"huge","ref":{"kind":"url","url":"y"}}}`, "document.nodes[0].nodes[0].data.kind: "},
		{`{"object":"inline","type":"button","isVoid":true,"data":{"label":"x","kind":"primary"}}`, "document.nodes[0].nodes[0].data.ref: "},
		{`{"object":"inline","type":"mention","isVoid":true,"data":{}}`, "document.nodes[0].nodes[0].data.ref: "},
		{`{"object":"inline","type":"expression","isVoid":true,"data":{}}`, "document.nodes[0].nodes[0].data.expression: "},
		{`{"object":"inline","type":"icon","isVoid":true,"data":{"icon":"x","color":"red"}}`, "document.nodes[0].nodes[0].data.color: "},
		{`{"object":"inline","type":"icon","isVoid":true,"data":{"icon":""}}`, "document.nodes[0].nodes[0].data.icon: "},
	} {
		doc := decodeJSON(t, `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[`+tt.inline+`]}]}`)
		if _, err := Markdown(doc); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Markdown of %s: error %v, want %s…", tt.inline, err, tt.want)
		}
	}
}
