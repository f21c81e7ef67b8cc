package render

import (
	"strings"
	"testing"
)

// codeFrameTests are markdown with code titles and line numbers, as Git
// Sync writes it, and the outline of its document; Markdown writes the
// document back byte for byte.
var codeFrameTests = []struct{ name, md, want string }{
	{"title", "{% code title=\"main.go\" %}\n```go\npackage main\n```\n{% endcode %}\n", `code{"syntax":"go","title":"main.go"}[code-line["package main"]]`},
	{"line numbers", "{% code lineNumbers=\"true\" %}\n```\na\nb\n```\n{% endcode %}\n", `code{"lineNumbers":true}[code-line["a"] code-line["b"]]`},
	{"both", "{% code title=\"a &amp; \\\"b\\\"\" lineNumbers=\"true\" %}\n```sh\nls\n```\n{% endcode %}\n",
		`code{"lineNumbers":true,"syntax":"sh","title":"a & \"b\""}[code-line["ls"]]`},
	{"in a list item", "- {% code title=\"x\" %}\n  ```\n  y\n  ```\n  {% endcode %}\n", `list-unordered[list-item[code{"title":"x"}[code-line["y"]]]]`},
	{"in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n{% code title=\"x\" %}\n```\ny\n```\n{% endcode %}\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"A"}[code{"title":"x"}[code-line["y"]]]]`},
	{"tag as text", "\\{% code title=\"x\" %}\n", `paragraph["{% code title=\"x\" %}"]`},
	{"overflow and full width", "{% code title=\"SmartRouter.sol\" overflow=\"wrap\" lineNumbers=\"true\" fullWidth=\"true\" %}\n```solidity\npragma solidity =0.7.6;\n```\n{% endcode %}\n",
		`code{"fullWidth":true,"lineNumbers":true,"overflow":"wrap","syntax":"solidity","title":"SmartRouter.sol"}[code-line["pragma solidity =0.7.6;"]]`},
	{"full width alone", "{% code fullWidth=\"true\" %}\n```\nx\n```\n{% endcode %}\n", `code{"fullWidth":true}[code-line["x"]]`},
}

// codeFrameReadTests are other markdown with code frames.
var codeFrameReadTests = []struct{ name, md, want string }{
	{"overflow scroll is kept", "{% code overflow=\"scroll\" %}\n```\ny\n```\n{% endcode %}", `code{"overflow":"scroll"}[code-line["y"]]`},
	{"other overflow is left out", "{% code overflow=\"hidden\" fullWidth=\"false\" %}\n```\ny\n```\n{% endcode %}", `code[code-line["y"]]`},
	{"no attributes", "{% code %}\n```\ny\n```\n{% endcode %}", `code[code-line["y"]]`},
	{"line numbers false", "{% code lineNumbers=\"false\" %}\n```\ny\n```\n{% endcode %}", `code[code-line["y"]]`},
	{"first code block takes the title", "{% code title=\"x\" %}\ntext\n\n```\na\n```\n\n```\nb\n```\n{% endcode %}",
		`paragraph["text"] code{"title":"x"}[code-line["a"]] code[code-line["b"]]`},
	{"in a hint it is code text", "{% hint style=\"info\" %}\n{% code title=\"x\" %}\n```\ny\n```\n{% endcode %}\n{% endhint %}", `hint{"style":"info"}[paragraph[code:"y"]]`},
	{"end tag in fenced code", "{% code title=\"x\" %}\n```\n{% endcode %}\n```\n{% endcode %}", `code{"title":"x"}[code-line["{% endcode %}"]]`},
	{"without its end tag it is text", "{% code title=\"x\" %}\n```\ny\n```", `paragraph["{% code title=\"x\" %}"] code[code-line["y"]]`},
}

func TestCodeFrameRoundTrip(t *testing.T) { checkKind(t, outline, codeFrameTests, codeFrameReadTests) }

// TestSmallDataMarkdownRefuses checks that data of hints, code and tabs
// markdown cannot write is an error naming it.
func TestSmallDataMarkdownRefuses(t *testing.T) {
	line := `{"object":"block","type":"code-line","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}`
	para := `{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}`
	for _, tt := range []struct{ block, want string }{
		{`{"object":"block","type":"code","data":{"expandable":true},"nodes":[` + line + `]}`, "document.nodes[0].data.expandable: "},
		{`{"object":"block","type":"code","data":{"collapsedLineCount":3},"nodes":[` + line + `]}`, "document.nodes[0].data.collapsedLineCount: "},
		{`{"object":"block","type":"code","data":{"overflow":"clip"},"nodes":[` + line + `]}`, "document.nodes[0].data.overflow: "},
		{`{"object":"block","type":"tabs","data":{},"nodes":[{"object":"block","type":"tabs-item","data":{"title":"A","icon":"x"},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.icon: "},
		{`{"object":"block","type":"tabs","data":{},"nodes":[{"object":"block","type":"tabs-item","data":{"title":"A","slug":"a"},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.slug: "},
	} {
		doc := decodeJSON(t, `{"object":"document","data":{},"nodes":[`+tt.block+`]}`)
		if _, err := Markdown(doc); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Markdown of %s: error %v, want %s…", tt.block, err, tt.want)
		}
	}
}
