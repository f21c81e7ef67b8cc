package render

import (
	"strings"
	"testing"
)

// columnsTests are columns as Git Sync writes them, and the outline of
// their document; Markdown writes the document back byte for byte.
var columnsTests = []struct{ name, md, want string }{
	{"columns", "{% columns %}\n{% column width=\"50%\" %}\n### Agent judgment\n\nUseful.\n{% endcolumn %}\n\n{% column width=\"50%\" %}\nHard controls.\n{% endcolumn %}\n{% endcolumns %}\n",
		`columns[column{"width":{"unit":"%","value":50}}[heading-3["Agent judgment"] paragraph["Useful."]] column{"width":{"unit":"%","value":50}}[paragraph["Hard controls."]]]`},
	{"fractional widths", "{% columns %}\n{% column width=\"66.66666666666666%\" %}\na\n{% endcolumn %}\n\n{% column width=\"33.33333333333334%\" %}\nb\n{% endcolumn %}\n{% endcolumns %}\n",
		`columns[column{"width":{"unit":"%","value":66.66666666666666}}[paragraph["a"]] column{"width":{"unit":"%","value":33.33333333333334}}[paragraph["b"]]]`},
	{"no width", "{% columns %}\n{% column %}\na\n{% endcolumn %}\n{% endcolumns %}\n", `columns[column[paragraph["a"]]]`},
	{"blocks in a column", "{% columns %}\n{% column %}\n| a |\n| --- |\n| 1 |\n\n{% stepper %}\n{% step %}\ns\n{% endstep %}\n{% endstepper %}\n{% endcolumn %}\n{% endcolumns %}\n",
		`columns[column[table{"definition":{"c0":{"id":"c0","textAlignment":"left","title":"a","type":"text"}},"records":{"r0":{"orderIndex":"00000000","values":{"c0":"r0-c0"}}},"view":{"columns":["c0"],"hideHeader":false,"type":"grid"}} stepper[stepper-step[paragraph["s"]]]]]`},
}

// columnsReadTests are other markdown with columns.
var columnsReadTests = []struct{ name, md, want string }{
	{"blank lines around the content", "{% columns %}\n{% column width=\"70%\" %}\n\na\n\n{% endcolumn %}\n{% endcolumns %}", `columns[column{"width":{"unit":"%","value":70}}[paragraph["a"]]]`},
	{"a width that is not a length is left out", "{% columns %}\n{% column width=\"wide\" %}\na\n{% endcolumn %}\n{% endcolumns %}", `columns[column[paragraph["a"]]]`},
	{"columns in a column are their content", "{% columns %}\n{% column %}\n{% columns %}\n{% column %}\na\n{% endcolumn %}\n{% endcolumns %}\n{% endcolumn %}\n{% endcolumns %}",
		`columns[column[paragraph["a"]]]`},
	{"tabs in a column are titles and content", "{% columns %}\n{% column %}\n{% tabs %}\n{% tab title=\"T\" %}\na\n{% endtab %}\n{% endtabs %}\n{% endcolumn %}\n{% endcolumns %}",
		`columns[column[paragraph["T"] paragraph["a"]]]`},
	{"columns in a hint are their content", "{% hint style=\"info\" %}\n{% columns %}\n{% column %}\na\n{% endcolumn %}\n{% endcolumns %}\n{% endhint %}", `hint{"style":"info"}[paragraph["a"]]`},
}

func TestColumnsRoundTrip(t *testing.T) { checkKind(t, outline, columnsTests, columnsReadTests) }

// TestItemsMarkdownRefuses checks that data of steps, columns and updates
// markdown cannot write is an error naming it.
func TestItemsMarkdownRefuses(t *testing.T) {
	para := `{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[]}]}]}`
	for _, tt := range []struct{ block, want string }{
		{`{"object":"block","type":"stepper","nodes":[{"object":"block","type":"stepper-step","data":{"icon":"rocket"},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.icon: "},
		{`{"object":"block","type":"columns","data":{"fullWidth":true},"nodes":[]}`, "document.nodes[0].data.fullWidth: "},
		{`{"object":"block","type":"columns","data":{},"nodes":[{"object":"block","type":"column","data":{"width":50},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.width: "},
		{`{"object":"block","type":"columns","data":{},"nodes":[{"object":"block","type":"column","data":{"verticalAlignment":"top"},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.verticalAlignment: "},
		{`{"object":"block","type":"updates","data":{"format":"full"},"nodes":[{"object":"block","type":"update","data":{"date":"2026-05-25T10:00:00Z"},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.date: "},
		{`{"object":"block","type":"updates","data":{"format":"full"},"nodes":[{"object":"block","type":"update","data":{"date":"2026-05-25T00:00:00Z","tags":[{"kind":"tag","tag":"a,b"}]},"nodes":[` + para + `]}]}`, "document.nodes[0].nodes[0].data.tags[0]: "},
		{`{"object":"block","type":"updates","data":{},"nodes":[]}`, "document.nodes[0].data.format: "},
	} {
		doc := decodeJSON(t, `{"object":"document","data":{},"nodes":[`+tt.block+`]}`)
		if _, err := Markdown(doc); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Markdown of %s: error %v, want %s…", tt.block, err, tt.want)
		}
	}
}
