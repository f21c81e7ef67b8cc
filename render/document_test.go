package render

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/internal/contract"
)

// outline writes document nodes compactly: a block or inline as its type,
// its data as JSON when not empty, then its children in brackets; a text as
// its leaves, each "marks:text" or "text" quoted.
func outline(nodes []any) string {
	parts := make([]string, 0, len(nodes))
	for _, n := range nodes {
		m := n.(map[string]any)
		if m["object"] == "text" {
			for _, l := range m["leaves"].([]any) {
				l := l.(map[string]any)
				var marks []string
				for _, mk := range l["marks"].([]any) {
					marks = append(marks, mk.(map[string]any)["type"].(string))
				}
				s := fmt.Sprintf("%q", l["text"])
				if len(marks) > 0 {
					s = strings.Join(marks, "+") + ":" + s
				}
				parts = append(parts, s)
			}
			continue
		}
		s := m["type"].(string)
		if d, _ := m["data"].(map[string]any); len(d) > 0 {
			var b strings.Builder
			e := json.NewEncoder(&b)
			e.SetEscapeHTML(false)
			_ = e.Encode(d)
			s += strings.TrimSuffix(b.String(), "\n")
		}
		if kids, ok := m["nodes"].([]any); ok {
			s += "[" + outline(kids) + "]"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// testResolve resolves a few fixed targets, like a Resolver would.
func testResolve(target string) Resolution {
	switch target {
	case "guide.md", "guide.md#setup":
		return Resolution{Kind: KindPage, PageID: "p1", Status: StatusOK}
	case "missing.md":
		return Resolution{Kind: KindPage, Status: StatusBroken}
	case "logo.png", "/files/f1":
		return Resolution{Kind: KindFile, FileID: "f1", Status: StatusOK}
	case "#top":
		return Resolution{Kind: KindAnchor, Status: StatusOK}
	case "https://x.example/a":
		return Resolution{Kind: KindURL, URL: "https://x.example/a", Status: StatusOK}
	}
	return Resolution{Kind: KindPage, Status: StatusBroken}
}

// documentTests are markdown and the outline of its document.
var documentTests = []struct {
	name, md, want string
}{
	{"empty", "", ""},
	{"paragraph", "Hello world", `paragraph["Hello world"]`},
	{"headings", "# One\n## Two\n### Three\n#### Four\n###### Six\nSet\n===\nExt\n---",
		`heading-1["One"] heading-2["Two"] heading-3["Three"] heading-3["Four"] heading-3["Six"] heading-1["Set"] heading-2["Ext"]`},
	{"empty heading", "#", `heading-1[""]`},
	{"marks", "a **b** *c* ***d*** `e` ~~f~~ **g _h_**",
		`paragraph["a " bold:"b" " " italic:"c" " " italic+bold:"d" " " code:"e" " " strikethrough:"f" " " bold:"g " bold+italic:"h"]`},
	{"same mark nested once", "*a _b_*", `paragraph[italic:"a b"]`},
	{"code span keeps escapes, newline is a space", "`a\\*\nb`", `paragraph[code:"a\\* b"]`},
	{"escapes and references", `a \* \_ &amp; &copy; &#35; \&amp;`, `paragraph["a * _ & © # &amp;"]`},
	{"soft and hard breaks", "a\nb  \nc\\\nd", `paragraph["a b\nc\nd"]`},
	{"inline html is text", "a <b>c</b>", `paragraph["a <b>c</b>"]`},
	{"html block is a paragraph", "<div>\n*x*\n</div>\n", `paragraph["<div>\n*x*\n</div>"]`},
	{"crlf", "a\r\nb\r\n\r\n<div>\r\nx\r\n</div>\r\n\r\n```\r\ny\r\n```\r\n", `paragraph["a b"] paragraph["<div>\nx\n</div>"] code[code-line["y"]]`},
	{"crlf in code", "`a\r\nb`\r\n\r\n> ```\r\n> x\r\n> ```", `paragraph[code:"a b"] blockquote[paragraph[code:"x"]]`},
	{"lone cr is a line ending", "# h\r- a\r- b\r\r```\rx\r```\r`c\rd`", `heading-1["h"] list-unordered[list-item[paragraph["a"]] list-item[paragraph["b"]]] code[code-line["x"]] paragraph[code:"c d"]`},
	{"cr from a reference stays", "a&#13;b", `paragraph["a\rb"]`},
	{"html comment", "<!-- c -->\n\ntext", `paragraph["<!-- c -->"] paragraph["text"]`},
	{"divider", "a\n\n***\n\nb", `paragraph["a"] divider paragraph["b"]`},
	{"unordered list", "- a\n- b\n  - c", `list-unordered[list-item[paragraph["a"]] list-item[paragraph["b"] list-unordered[list-item[paragraph["c"]]]]]`},
	{"ordered list", "1. a\n2. b", `list-ordered[list-item[paragraph["a"]] list-item[paragraph["b"]]]`},
	{"ordered list start", "3) a\n\n   b", `list-ordered{"start":3}[list-item[paragraph["a"] paragraph["b"]]]`},
	{"empty item", "-\n- b", `list-unordered[list-item[paragraph[""]] list-item[paragraph["b"]]]`},
	{"fenced code", "```go title\nfunc f() {\n\treturn\n}\n```",
		`code{"syntax":"go"}[code-line["func f() {"] code-line["\treturn"] code-line["}"]]`},
	{"indented code", "    a\n    b\n", `code[code-line["a"] code-line["b"]]`},
	{"empty code", "```\n```", `code[code-line[""]]`},
	{"code in list", "- ```sh\n  ls\n  ```", `list-unordered[list-item[code{"syntax":"sh"}[code-line["ls"]]]]`},
	{"blockquote", "> a\n>\n> > b", `blockquote[paragraph["a"] blockquote[paragraph["b"]]]`},
	{"code in blockquote is code text", "> ```\n> x\n> y\n> ```", `blockquote[paragraph[code:"x\ny"]]`},
	{"image in blockquote stays inline", "> ![a](https://i.example/a.png)",
		`blockquote[paragraph[inline-image{"alt":"a","ref":{"kind":"url","url":"https://i.example/a.png"}}]]`},
	{"table in blockquote is rows", "> | a | b |\n> |---|---|\n> | 1 | *2* |", `blockquote[paragraph["a | b"] paragraph["1 | " italic:"2"]]`},
	{"block images", "![one](logo.png)\n![](https://i.example/b.png)",
		`images[image{"alt":"one","ref":{"file":"f1","kind":"file"}} image{"ref":{"kind":"url","url":"https://i.example/b.png"}}]`},
	{"image with text is inline", "see ![alt *x*](logo.png)",
		`paragraph["see " inline-image{"alt":"alt x","ref":{"file":"f1","kind":"file"}}]`},
	{"image in list item is inline", "- ![a](logo.png)", `list-unordered[list-item[paragraph[inline-image{"alt":"a","ref":{"file":"f1","kind":"file"}}]]]`},
	{"image resolving to a page is a url", "![p](guide.md)", `images[image{"alt":"p","ref":{"kind":"url","url":"guide.md"}}]`},
	{"links", "[a](guide.md) [b](missing.md) [c](/files/f1) [d](#top) [e](guide.md#setup) [f](https://x.example/a) [**g**](other)",
		`paragraph[link{"ref":{"kind":"page","page":"p1"}}["a"] " " link{"ref":{"kind":"url","url":"missing.md"}}["b"] " " ` +
			`link{"ref":{"file":"f1","kind":"file"}}["c"] " " link{"ref":{"anchor":"top","kind":"anchor"}}["d"] " " ` +
			`link{"ref":{"anchor":"setup","kind":"anchor","page":"p1"}}["e"] " " link{"ref":{"kind":"url","url":"https://x.example/a"}}["f"] " " ` +
			`link{"ref":{"kind":"url","url":"other"}}[bold:"g"]]`},
	{"marks reach into links", "*[a](x)*", `paragraph[link{"ref":{"kind":"url","url":"x"}}[italic:"a"]]`},
	{"image in link", "[![i](logo.png)](guide.md)",
		`paragraph[link{"ref":{"kind":"page","page":"p1"}}[inline-image{"alt":"i","ref":{"file":"f1","kind":"file"}}]]`},
	{"reference link and definition", "[a][r]\n\n[r]: guide.md", `paragraph[link{"ref":{"kind":"page","page":"p1"}}["a"]]`},
	{"autolinks", "<https://x.example/a> <me@x.example>",
		`paragraph[link{"ref":{"kind":"url","url":"https://x.example/a"}}["https://x.example/a"] " " link{"ref":{"kind":"url","url":"mailto:me@x.example"}}["me@x.example"]]`},
	{"link destination decoded", `[a](a\_b&amp;c)`, `paragraph[link{"ref":{"kind":"url","url":"a_b&c"}}["a"]]`},
	// The schema lets a link hold only text and images: an autolink in a link is its text.
	{"autolink in a link", "[see <https://a.test>](https://b.test)", `paragraph[link{"ref":{"kind":"url","url":"https://b.test"}}["see https://a.test"]]`},
	{"email autolink in a link keeps marks", "[*<me@x.example>* x](y)", `paragraph[link{"ref":{"kind":"url","url":"y"}}[italic:"me@x.example" " x"]]`},
	{"autolink in a reference link", "[a <https://a.test>][r]\n\n[r]: guide.md", `paragraph[link{"ref":{"kind":"page","page":"p1"}}["a https://a.test"]]`},
	{"autolink in a link in a quoted table", "> | a |\n> | - |\n> | [<https://a.test>](b) |",
		`blockquote[paragraph["a"] paragraph[link{"ref":{"kind":"url","url":"b"}}["https://a.test"]]]`},
}

func TestDocument(t *testing.T) {
	for _, tt := range documentTests {
		t.Run(tt.name, func(t *testing.T) {
			doc := Document(tt.md, testResolve)
			if got := outline(doc["nodes"].([]any)); got != tt.want {
				t.Errorf("Document(%q)\n got %s\nwant %s", tt.md, got, tt.want)
			}
			if ref := reference(t); ref != nil {
				if err := ref.CheckSchema("JSONDocument", doc); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// TestDocumentLineEndings checks that "\r\n" and a lone "\r" are line
// endings like "\n" (CommonMark §2.1), wherever they are.
func TestDocumentLineEndings(t *testing.T) {
	mds := []string{richMarkdown}
	for _, tt := range documentTests {
		if !strings.Contains(tt.md, "\r") {
			mds = append(mds, tt.md)
		}
	}
	for _, md := range mds {
		want := Document(md, testResolve)
		for _, eol := range []string{"\r\n", "\r"} {
			in := strings.ReplaceAll(md, "\n", eol)
			if got := Document(in, testResolve); !reflect.DeepEqual(got, want) {
				t.Errorf("Document(%q) differs from the same with \"\\n\" (-want +got):\n%s", in, cmp.Diff(want, got))
			}
		}
	}
}

func TestDocumentNilResolve(t *testing.T) {
	got := outline(Document("[a](guide.md) ![b](logo.png) [c](#top)", nil)["nodes"].([]any))
	want := `paragraph[link{"ref":{"kind":"url","url":"guide.md"}}["a"] " " inline-image{"alt":"b","ref":{"kind":"url","url":"logo.png"}} " " link{"ref":{"kind":"url","url":"#top"}}["c"]]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestDocumentTable(t *testing.T) {
	doc := Document("| a | *b* | c |\n|:-|:-:|-:|\n| 1 | [x](guide.md) |\n| 3 | 4 | 5 |", testResolve)
	got := doc["nodes"].([]any)[0].(map[string]any)
	data := got["data"].(map[string]any)
	want := map[string]any{
		"view": map[string]any{"type": "grid", "columns": []any{"c0", "c1", "c2"}, "hideHeader": false},
		"definition": map[string]any{
			"c0": map[string]any{"id": "c0", "title": "a", "type": "text", "textAlignment": "left"},
			"c1": map[string]any{"id": "c1", "title": "b", "type": "text", "textAlignment": "center"},
			"c2": map[string]any{"id": "c2", "title": "c", "type": "text", "textAlignment": "right"},
		},
		"records": map[string]any{
			"r0": map[string]any{"orderIndex": "00000000", "values": map[string]any{"c0": "r0-c0", "c1": "r0-c1", "c2": "r0-c2"}},
			"r1": map[string]any{"orderIndex": "00000001", "values": map[string]any{"c0": "r1-c0", "c1": "r1-c1", "c2": "r1-c2"}},
		},
	}
	if diff := cmp.Diff(want, data); diff != "" {
		t.Errorf("table data (-want +got):\n%s", diff)
	}
	frags := map[string]string{}
	for _, f := range got["fragments"].([]any) {
		f := f.(map[string]any)
		frags[f["fragment"].(string)] = outline(f["nodes"].([]any))
	}
	if frags["r0-c1"] != `paragraph[link{"ref":{"kind":"page","page":"p1"}}["x"]]` || frags["r0-c2"] != `paragraph[""]` || frags["r1-c2"] != `paragraph["5"]` {
		t.Errorf("fragments: %v", frags)
	}
}

// richMarkdown holds every construct Document maps.
const richMarkdown = `# Guide *intro*

Text with **bold**, *italic*, ***both***, ` + "`code`" + `, ~~struck~~, a [page](guide.md),
a [file](/files/f1), an [anchor](#top), a [page anchor](guide.md#setup), a [url](https://x.example/a),
a [broken](missing.md) link, <https://auto.example>, <me@x.example>, <span>html</span>,
an inline ![icon](logo.png) and a hard break\
here &amp; \* escapes.

## Second level

### Third level

#### Fourth level

Setext
======

- one
- two with ` + "`code`" + `
  1. nested
  2. ordered

     > quote in item

  ` + "```js" + `
  code in item
  ` + "```" + `
- ![image in item](logo.png)

4. starts at four
5. five

> A quote with **bold**
>
> - a list
>
> ---
>
> ` + "```" + `
> code in quote
> ` + "```" + `
>
> > nested quote
>
> | t | u |
> |---|---|
> | 1 | 2 |

` + "```go extra" + `
package main

func main() {}
` + "```" + `

    indented code

---

![block image](logo.png)
![second](https://img.example/x.png "title")

[![linked image](logo.png)](guide.md)

<div>
html block
</div>

| Left | Center | Right |
|:-----|:------:|------:|
| a | **b** | [c](guide.md) |
| ![i](logo.png) | ` + "`e`" + ` |

- [ ] not a task list without the extension

[ref]: guide.md
`

func TestDocumentSchema(t *testing.T) {
	ref := reference(t)
	if ref == nil {
		t.Skip("reference OpenAPI document not found")
	}
	for _, resolve := range []func(string) Resolution{testResolve, nil} {
		doc := Document(richMarkdown, resolve)
		if err := ref.CheckSchema("JSONDocument", doc); err != nil {
			t.Fatal(err)
		}
	}
	// The check itself must catch a bad document.
	bad := Document("# x", nil)
	bad["nodes"].([]any)[0].(map[string]any)["type"] = "heading-4"
	if ref.CheckSchema("JSONDocument", bad) == nil {
		t.Fatal("a heading-4 block validated")
	}
}

func FuzzDocument(f *testing.F) {
	f.Add(richMarkdown)
	for _, tt := range documentTests {
		f.Add(tt.md)
	}
	for _, md := range gitbookSeeds() {
		f.Add(md)
	}
	for _, md := range corpusSeeds(f) {
		f.Add(md)
	}
	ref := reference(f)
	f.Fuzz(func(t *testing.T, md string) {
		doc := Document(md, testResolve)
		if _, err := json.Marshal(doc); err != nil {
			t.Fatal(err)
		}
		if ref != nil {
			if err := ref.CheckSchema("JSONDocument", doc); err != nil {
				t.Fatalf("Document(%q): %v", md, err)
			}
		}
	})
}

var (
	refOnce sync.Once
	ref     *contract.Reference
	refErr  error
)

// reference loads the reference OpenAPI document once; nil when it is not
// found, except in CI, where it must be.
func reference(t testing.TB) *contract.Reference {
	t.Helper()
	refOnce.Do(func() {
		path := contract.Find(".")
		if path == "" {
			if os.Getenv("CI") != "" {
				refErr = fmt.Errorf("reference OpenAPI document not found (set QUIRE_REFERENCE)")
			}
			return
		}
		ref, refErr = contract.Load(path)
	})
	if refErr != nil {
		t.Fatalf("load reference: %v", refErr)
	}
	return ref
}
