package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// markTests are markdown with marks, as Git Sync writes them, and the
// outline of its document; Markdown writes the document back byte for byte.
var markTests = []struct{ name, md, want string }{
	{"emphasis", "**bold** *italic* ~~struck~~ `code`\n", `paragraph[bold:"bold" " " italic:"italic" " " strikethrough:"struck" " " code:"code"]`},
	{"keyboard", "Press <kbd>Ctrl</kbd> + <kbd>C</kbd>.\n", `paragraph["Press " keyboard:"Ctrl" " + " keyboard:"C" "."]`},
	{"superscript and subscript", "E = mc<sup>2</sup>, H<sub>2</sub>O\n", `paragraph["E = mc" superscript:"2" ", H" subscript:"2" "O"]`},
	{"text color", "<mark style=\"color:red;\">red</mark>\n", `paragraph[color{"background":"default","text":"red"}:"red"]`},
	{"text and background", "<mark style=\"color:purple;background-color:green;\">both</mark>\n", `paragraph[color{"background":"green","text":"purple"}:"both"]`},
	{"background", "<mark style=\"background-color:yellow;\">lit</mark>\n", `paragraph[color{"background":"yellow","text":"default"}:"lit"]`},
	{"semantic color", "<mark style=\"color:$primary;\">x</mark>\n", `paragraph[color{"background":"default","text":"$primary"}:"x"]`},
	{"bold in a color", "<mark style=\"color:red;\">**RED**</mark>\n", `paragraph[color{"background":"default","text":"red"}+bold:"RED"]`},
	{"color in italic", "*<mark style=\"color:purple;\">answer</mark>*\n", `paragraph[italic+color{"background":"default","text":"purple"}:"answer"]`},
	{"code in a key", "<kbd>`Esc`</kbd>\n", `paragraph[keyboard+code:"Esc"]`},
	{"nested tags", "<sup><sub>x</sub> y</sup>\n", `paragraph[superscript+subscript:"x" superscript:" y"]`},
	{"mark in a heading", "## <mark style=\"color:blue;\">Title</mark>\n", `heading-2[color{"background":"default","text":"blue"}:"Title"]`},
	{"mark in a link", "[<kbd>K</kbd>](https://example.com)\n", `paragraph[link{"ref":{"kind":"url","url":"https://example.com"}}[keyboard:"K"]]`},
	{"mark in a table", "| a |\n| --- |\n| <sup>1</sup> |\n",
		`table{"definition":{"c0":{"id":"c0","textAlignment":"left","title":"a","type":"text"}},"records":{"r0":{"orderIndex":"00000000","values":{"c0":"r0-c0"}}},"view":{"columns":["c0"],"hideHeader":false,"type":"grid"}}`},
	{"tags as text", "\\<kbd>x\\</kbd>\n", `paragraph["<kbd>x</kbd>"]`},
}

// markReadTests are other markdown with mark tags: what Document makes of it.
var markReadTests = []struct{ name, md, want string }{
	{"no end tag", "<sup>x", `paragraph["<sup>x"]`},
	{"end tag alone", "x</sup>", `paragraph["x</sup>"]`},
	{"across emphasis", "<sup>*x</sup>*", `paragraph["<sup>" italic:"x</sup>"]`},
	{"other colors are text", "<mark style=\"color:#f00;\">x</mark>", `paragraph["<mark style=\"color:#f00;\">x</mark>"]`},
	{"other attributes are text", "<mark class=\"a\">x</mark>", `paragraph["<mark class=\"a\">x</mark>"]`},
	{"mark without a style is default", "<mark>x</mark>", `paragraph[color{"background":"default","text":"default"}:"x"]`},
	{"spaces in the style", "<mark style=\"color: red; background-color: blue\">x</mark>", `paragraph[color{"background":"blue","text":"red"}:"x"]`},
	{"same tag nested", "<sup>a<sup>b</sup>c</sup>", `paragraph[superscript:"abc"]`},
	{"other tags stay text", "<b>x</b>", `paragraph["<b>x</b>"]`},
	{"a mark of nothing is text", "<sup></sup>", `paragraph["<sup></sup>"]`},
	{"crossing tags", "<sup>a<sub>b</sup>c</sub>", `paragraph[superscript:"a<sub>b" "c</sub>"]`},
	{"unclosed inside", "<sup>a<sup>b</sup>", `paragraph["<sup>a" superscript:"b"]`},
}

func TestMarksRoundTrip(t *testing.T) { checkKind(t, outlineMarks, markTests, markReadTests) }

// outlineMarks is outline with a color mark's data after its type.
func outlineMarks(nodes []any) string {
	return outline(colorNames(nodes).([]any))
}

// colorNames copies v with each color mark's type holding its data, as
// outline shows only a mark's type.
func colorNames(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = colorNames(x)
		}
		if v["object"] == "mark" && v["type"] == "color" {
			d := v["data"].(map[string]any)
			out["type"] = `color{"background":"` + d["background"].(string) + `","text":"` + d["text"].(string) + `"}`
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = colorNames(x)
		}
		return out
	}
	return v
}

// TestMarksMarkdownRefuses checks that a mark markdown cannot write is an
// error naming it, not dropped.
func TestMarksMarkdownRefuses(t *testing.T) {
	for _, tt := range []struct{ mark, want string }{
		{`{"object":"mark","type":"underline"}`, `document.nodes[0].nodes[0].leaves[0].marks[0].type: unknown mark "underline"`},
		{`{"object":"mark","type":"color","data":{"text":"#f00","background":"default"}}`, `document.nodes[0].nodes[0].leaves[0].marks[0].data.text: not a color`},
		{`{"object":"mark","type":"color"}`, `document.nodes[0].nodes[0].leaves[0].marks[0].data.`},
	} {
		doc := decodeJSON(t, `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x","marks":[`+tt.mark+`]}]}]}]}`)
		if _, err := Markdown(doc); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Markdown with mark %s: error %v, want %s…", tt.mark, err, tt.want)
		}
	}
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}
