package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// leavesJSON is a document of one paragraph of n leaves, as security
// finding 2 sent it: some 55 bytes a leaf.
func leavesJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","isVoid":false,"data":{},"nodes":[{"object":"text","leaves":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"object":"leaf","text":"word ","marks":[]}`)
	}
	b.WriteString(`]}]}]}`)
	return b.Bytes()
}

// nestedJSON is a document of n blockquotes, one in another.
func nestedJSON(n int) []byte {
	inner := `{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x"}]}]}`
	return []byte(`{"object":"document","nodes":[` + strings.Repeat(`{"object":"block","type":"blockquote","nodes":[`, n) +
		inner + strings.Repeat(`]}`, n) + `]}`)
}

func TestCheckDocumentJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		doc  []byte
		over string // "" when within bounds
	}{
		{"100,000 elements", leavesJSON(MaxDocumentNodes - 1), ""},
		{"100,001 elements", leavesJSON(MaxDocumentNodes), "more than 100000 elements"},
		{"500,000 leaves", leavesJSON(500_000), "more than 100000 elements"},
		{"100 blockquotes", nestedJSON(MaxNesting), ""},
		{"deep blockquotes", nestedJSON(MaxJSONDepth / 2), "nested more than 416 JSON levels deep"},
		{"deep arrays in data", []byte(`{"object":"document","data":{"x":` + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + `}}`), "nested more than 416"},
		{"values in data", []byte(`{"object":"document","data":{"x":[0` + strings.Repeat(",0", MaxJSONValues) + `]}}`), "more than 800000 JSON values"},
		{"strings", []byte(`{"object":"document","data":{"x":"` + strings.Repeat("x", MaxJSONText) + `"}}`), "more than 4248576 bytes of strings"},
		{"escaped strings", []byte(`{"object":"document","data":{"x":"` + strings.Repeat(`\u0001`, MaxJSONText/6) + `"}}`), ""},
		{"malformed", []byte(`{"object":"document","nodes":[`), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckDocumentJSON(tc.doc)
			switch {
			case tc.over == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.over != "" && (quire.ErrorCode(err) != quire.CodeInvalid || !strings.Contains(quire.ErrorMessage(err), tc.over)):
				t.Fatalf("got %v, want CodeInvalid naming %q", err, tc.over)
			}
		})
	}
}

// TestCheckDocumentJSONRoundTrip: the documents of these pages within the
// bounds are within those of a JSON document, so they may be written back.
// (Not every page's is: an empty list item is three elements as JSON, and
// a code line two.)
func TestCheckDocumentJSONRoundTrip(t *testing.T) {
	t.Parallel()
	for _, md := range []string{
		strings.Repeat("word *word* **word** `code`\n\n", 8_000),
		strings.Repeat(">", MaxNesting) + " deep\n",
		strings.Repeat("- a\n", 30_000),
		table(MaxTableCells/5, 4, false),
		strings.Repeat("\x01", MaxMarkdownSize/2),
	} {
		doc, err := DocumentJSON(md, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := countJSON(NewDecoder(bytes.NewReader(doc)), false)
		if err != nil {
			t.Fatal(err)
		}
		if c.over() != "" {
			t.Errorf("%.20q…: %d elements, %d levels, %d values, %d bytes of strings: %s", md, c.elements, c.depth, c.values, c.text, c.over())
		}
	}
}

// FuzzCountJSON: the counter never panics, and counts what encoding/json
// decodes: exactly for the value re-encoded, and at least as much for the
// value as given (a repeated name counts each time, where decoding keeps
// the last).
func FuzzCountJSON(f *testing.F) {
	for _, s := range []string{
		`{"object":"document","data":{},"nodes":[]}`,
		string(leavesJSON(3)),
		string(nestedJSON(3)),
		`{"object":"leaf","object":"mark","text":"\u00e9\ud800\"","marks":[{"object":"mark","type":"bold"}]}`,
		`[1, 2.5e3, true, false, null, "x", {"object": {"object": "block"}}, {"a": "object", "object": "inline"}]`,
		"\"\xff\xfe\"",
		`{"object":"document","nodes":[`,
		`"x" "y"`,
		`{"a":1}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := countJSON(NewDecoder(bytes.NewReader(b)), false)
		_ = CheckDocumentJSON(b)
		var v any
		if json.Unmarshal(b, &v) != nil || err != nil {
			return
		}
		want := countValue(v, 0)
		if got.elements < want.elements || got.values < want.values || got.text < want.text || got.depth < want.depth {
			t.Fatalf("counted %+v, decoded %+v", got, want)
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := countJSON(NewDecoder(bytes.NewReader(again)), false); err != nil || got != want {
			t.Fatalf("re-encoded %s: counted %+v (%v), decoded %+v", again, got, err, want)
		}
	})
}

// countValue counts a decoded value as countJSON counts it read; depth is
// that of v's level.
func countValue(v any, depth int) jsonCounts {
	var c jsonCounts
	c.values = 1
	add := func(k jsonCounts) {
		c.elements += k.elements
		c.values += k.values
		c.text += k.text
		c.depth = max(c.depth, k.depth)
	}
	switch v := v.(type) {
	case string:
		c.text = len(v)
	case []any:
		c.depth = depth + 1
		for _, x := range v {
			add(countValue(x, depth+1))
		}
	case map[string]any:
		c.depth = depth + 1
		for _, x := range v {
			add(countValue(x, depth+1))
		}
		if o, ok := v["object"].(string); ok && elementObjects[o] {
			c.elements++
		}
	}
	return c
}

// BenchmarkMarkdownLeaves writes the largest paragraph of leaves within the
// bounds as markdown: joining them took the square of their number (20,000
// leaves allocated 1 GB).
func BenchmarkMarkdownLeaves(b *testing.B) {
	var doc map[string]any
	if err := json.Unmarshal(leavesJSON(MaxDocumentNodes-1), &doc); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Markdown(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckDocumentJSON measures refusing the document of security
// finding 2, 500,000 leaves (22 MB): the counter stops at the 100,001st
// element, having allocated nothing for what it read.
func BenchmarkCheckDocumentJSON(b *testing.B) {
	doc := leavesJSON(500_000)
	b.ReportAllocs()
	for b.Loop() {
		if CheckDocumentJSON(doc) == nil {
			b.Fatal("taken")
		}
	}
}
