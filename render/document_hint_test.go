package render

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hintTests are markdown with hints, as Git Sync writes it, and the outline
// of its document; Markdown writes the document back byte for byte.
var hintTests = []struct{ name, md, want string }{
	{"hint", "{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n", `hint{"style":"warning"}[paragraph["Careful."]]`},
	{"styles", "{% hint style=\"info\" %}\na\n{% endhint %}\n\n{% hint style=\"success\" %}\nb\n{% endhint %}\n\n" +
		"{% hint style=\"danger\" %}\nc\n{% endhint %}\n",
		`hint{"style":"info"}[paragraph["a"]] hint{"style":"success"}[paragraph["b"]] hint{"style":"danger"}[paragraph["c"]]`},
	{"blocks in a hint", "{% hint style=\"info\" %}\n## Title\n\nText with **bold**.\n\n- one\n- two\n\n| a |\n| --- |\n| 1 |\n\n---\n{% endhint %}\n",
		`hint{"style":"info"}[heading-2["Title"] paragraph["Text with " bold:"bold" "."] list-unordered[list-item[paragraph["one"]] list-item[paragraph["two"]]] ` +
			`table{"definition":{"c0":{"id":"c0","textAlignment":"left","title":"a","type":"text"}},"records":{"r0":{"orderIndex":"00000000","values":{"c0":"r0-c0"}}},"view":{"columns":["c0"],"hideHeader":false,"type":"grid"}} divider]`},
	{"empty hint", "{% hint style=\"info\" %}\n{% endhint %}\n", `hint{"style":"info"}[paragraph[""]]`},
	{"hint in a list item", "- {% hint style=\"danger\" %}\n  x\n  {% endhint %}\n", `list-unordered[list-item[hint{"style":"danger"}[paragraph["x"]]]]`},
	{"code in a hint is code text", "{% hint style=\"info\" %}\n```\na\nb\n```\n{% endhint %}\n", `hint{"style":"info"}[paragraph[code:"a\nb"]]`},
	{"hint tags as text", "\\{% hint style=\"info\" %}\n\n\\{% endhint %}\n", `paragraph["{% hint style=\"info\" %}"] paragraph["{% endhint %}"]`},
	{"icon", "{% hint style=\"info\" icon=\"right-long\" %}\nEnterprise only.\n{% endhint %}\n", `hint{"icon":"right-long","style":"info"}[paragraph["Enterprise only."]]`},
	{"text before and after", "a\n\n{% hint style=\"success\" %}\nb\n{% endhint %}\n\nc\n", `paragraph["a"] hint{"style":"success"}[paragraph["b"]] paragraph["c"]`},
}

// hintReadTests are other markdown with hints: what Document makes of it.
var hintReadTests = []struct{ name, md, want string }{
	{"unknown style is info", "{% hint style=\"tip\" %}\nx\n{% endhint %}", `hint{"style":"info"}[paragraph["x"]]`},
	{"style in capitals", "{% hint style=\"WARNING\" %}\nx\n{% endhint %}", `hint{"style":"warning"}[paragraph["x"]]`},
	{"without its end tag it is text", "{% hint style=\"info\" %}\nx", `paragraph["{% hint style=\"info\" %} x"]`},
	{"an end tag alone is text", "{% endhint %}", `paragraph["{% endhint %}"]`},
	{"other tags stay text", "{% swagger-description %}\nx\n{% endswagger-description %}", `paragraph["{% swagger-description %} x {% endswagger-description %}"]`},
	{"hint in a hint is its content", "{% hint style=\"info\" %}\na\n{% hint style=\"danger\" %}\nb\n{% endhint %}\n{% endhint %}",
		`hint{"style":"info"}[paragraph["a"] paragraph["b"]]`},
	{"quote in a hint is its content", "{% hint style=\"info\" %}\n> a\n>\n> b\n{% endhint %}", `hint{"style":"info"}[paragraph["a"] paragraph["b"]]`},
	{"hint in a quote is its content", "> {% hint style=\"info\" %}\n> a\n> {% endhint %}", `blockquote[paragraph["a"]]`},
	{"image in a hint is inline", "{% hint style=\"info\" %}\n![a](logo.png)\n{% endhint %}",
		`hint{"style":"info"}[paragraph[inline-image{"alt":"a","ref":{"file":"f1","kind":"file"}}]]`},
	{"blank lines around the content", "{% hint style=\"info\" %}\n\nx\n\n{% endhint %}", `hint{"style":"info"}[paragraph["x"]]`},
	// The end tag in fenced code is code: Markdown writes code in a hint fenced.
	{"end tag in fenced code", "{% hint style=\"info\" %}\n```\na\n{% endhint %}\n```\n{% endhint %}", `hint{"style":"info"}[paragraph[code:"a\n{% endhint %}"]]`},
	{"end tag in indented code", "{% hint style=\"info\" %}\n    a\n    {% endhint %}\n{% endhint %}", `hint{"style":"info"}[paragraph[code:"a\n{% endhint %}"]]`},
	{"a second end tag is text", "{% hint style=\"info\" %}\na\n{% endhint %}\n{% endhint %}", `hint{"style":"info"}[paragraph["a"]] paragraph["{% endhint %}"]`},
	{"list ending in an empty item", "{% hint style=\"info\" %}\n- a\n-\n\nb\n{% endhint %}",
		`hint{"style":"info"}[list-unordered[list-item[paragraph["a"]] list-item[paragraph[""]]] paragraph["b"]]`},
	{"end tag left out in a list item", "1. {% hint style=\"info\" %}\n   a\n{% endhint %}\n", `list-ordered[list-item[hint{"style":"info"}[paragraph["a {% endhint %}"]]]]`},
	{"html block in a hint", "{% hint style=\"info\" %}\n<div>\n{% endhint %}\n", `hint{"style":"info"}[paragraph["<div>"]]`},
}

// TestHintRoundTrip checks hints both ways: markdown → document →
// markdown is the same bytes, the document is valid, and document →
// markdown → document is the same document.
func TestHintRoundTrip(t *testing.T) {
	ref := reference(t)
	for _, tt := range hintTests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Document(tt.md, testResolve)
			if got := outline(doc["nodes"].([]any)); got != tt.want {
				t.Errorf("Document(%q)\n got %s\nwant %s", tt.md, got, tt.want)
			}
			if ref != nil {
				if err := ref.CheckSchema("JSONDocument", doc); err != nil {
					t.Error(err)
				}
			}
			if got := roundTrip(t, tt.md, nil, nil); got != tt.md {
				t.Errorf("Markdown(Document(%q))\n got %q\nwant %q", tt.md, got, tt.md)
			}
			// From JSON, as a client sends it.
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			var decoded map[string]any
			if err := json.Unmarshal(b, &decoded); err != nil {
				t.Fatal(err)
			}
			md, err := Markdown(decoded)
			if err != nil {
				t.Fatal(err)
			}
			if back := Document(md, testResolve); !reflect.DeepEqual(back, doc) {
				t.Errorf("Document(Markdown(doc)) differs (-want +got):\n%s", cmp.Diff(doc, back))
			}
		})
	}
}

func TestHintDocument(t *testing.T) {
	ref := reference(t)
	for _, tt := range hintReadTests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Document(tt.md, testResolve)
			if got := outline(doc["nodes"].([]any)); got != tt.want {
				t.Errorf("Document(%q)\n got %s\nwant %s", tt.md, got, tt.want)
			}
			if ref != nil {
				if err := ref.CheckSchema("JSONDocument", doc); err != nil {
					t.Error(err)
				}
			}
			roundTrip(t, tt.md, nil, nil)
			roundTrip(t, tt.md, testResolve, resolveIDs)
		})
	}
}

func TestHintMarkdown(t *testing.T) {
	para := func(s string) map[string]any {
		return block("paragraph", nil, []any{textNode(leaf(s, nil))})
	}
	for _, tt := range []struct {
		name string
		hint map[string]any
		want string
	}{
		{"no style is info", block("hint", nil, []any{para("x")}), "{% hint style=\"info\" %}\nx\n{% endhint %}\n"},
		{"unknown style is info", block("hint", map[string]any{"style": "\" %}"}, []any{para("x")}), "{% hint style=\"info\" %}\nx\n{% endhint %}\n"},
		{"tag text is escaped", block("hint", map[string]any{"style": "danger"}, []any{para("{% endhint %}")}),
			"{% hint style=\"danger\" %}\n\\{% endhint %}\n{% endhint %}\n"},
		{"no content", block("hint", map[string]any{"style": "success"}, []any{}), "{% hint style=\"success\" %}\n{% endhint %}\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.hint}})
			if err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// gitbookSeeds are markdown with GitBook's blocks, for the fuzz tests.
func gitbookSeeds() []string {
	var mds []string
	for _, tt := range hintTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range hintReadTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range expandableTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range expandableReadTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range tabsTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range tabsReadTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range codeFrameTests {
		mds = append(mds, tt.md)
	}
	for _, tt := range codeFrameReadTests {
		mds = append(mds, tt.md)
	}
	for _, tests := range [][]struct{ name, md, want string }{embedTests, embedReadTests, contentRefTests, contentRefReadTests,
		imagesTests, imagesReadTests, drawingTests, drawingReadTests, mathTests, mathReadTests, includeTests, includeReadTests, openAPITests, openAPIReadTests, integrationTests, integrationReadTests, ifTests, ifReadTests, promptTests, promptReadTests,
		markTests, markReadTests, inlineTests, inlineReadTests, taskTests, taskReadTests,
		stepperTests, stepperReadTests, columnsTests, columnsReadTests, updatesTests, updatesReadTests} {
		for _, tt := range tests {
			mds = append(mds, tt.md)
		}
	}
	return mds
}
