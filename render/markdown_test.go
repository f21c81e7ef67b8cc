package render

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// roundTrip checks that the markdown written for Document(md, resolve)
// reads back (with readBack) as the same document, and returns it.
func roundTrip(t *testing.T, md string, resolve, readBack func(string) Resolution) string {
	t.Helper()
	want := Document(md, resolve)
	got, err := Markdown(want)
	if err != nil {
		t.Fatalf("Markdown(Document(%q)): %v", md, err)
	}
	// cmp.Diff takes time exponential in the depth of equal nested slices,
	// so it only explains a difference reflect.DeepEqual found.
	if before := Document(md, resolve); !reflect.DeepEqual(before, want) {
		t.Fatalf("Markdown changed its document (-before +after):\n%s", cmp.Diff(before, want))
	}
	if back := Document(got, readBack); !reflect.DeepEqual(want, back) {
		t.Fatalf("Document(Markdown(Document(%q))) differs (-want +got):\n%s\nmarkdown:\n%s", md, cmp.Diff(want, back), got)
	}
	return got
}

// resolveIDs resolves what Markdown writes for pages, files and anchors, as
// Resolver.Resolve does.
func resolveIDs(target string) Resolution {
	if strings.HasPrefix(target, "#") {
		return Resolution{Kind: KindAnchor, Status: StatusOK}
	}
	p, _, _ := strings.Cut(target, "#")
	if id, ok := strings.CutPrefix(p, "/pages/"); ok {
		return Resolution{Kind: KindPage, PageID: id, Status: StatusOK}
	}
	if id, ok := strings.CutPrefix(p, "/files/"); ok {
		return Resolution{Kind: KindFile, FileID: id, Status: StatusOK}
	}
	return Resolution{Kind: KindURL, URL: target, Status: StatusOK}
}

// normalized is markdown that Markdown(Document(m)) writes as it is.
var normalized = []struct{ name, md string }{
	{"paragraph", "Hello world\n"},
	{"paragraphs", "One\n\nTwo\n"},
	{"headings", "# One\n\n## Two *it*\n\n### Three\n"},
	{"empty heading", "#\n"},
	{"heading ending in #", "# C\\#\n"},
	{"marks", "a *b* **c** _**d**_ `e` ~~f~~ **g *h***\n"},
	{"intraword emphasis", "un*believ*able and snake_case\n"},
	{"code spans", "`a` ``b`c`` `` `d` `` `  e  `\n"},
	{"escaped characters", "\\*a\\* \\_b\\_ \\`c\\` \\[d\\] \\~e\\~ \\\\ f! 2 < 3 \\<g> \\&amp; & h\n"},
	{"escaped line starts", "\\# a\\\n1\\. b\\\n\\- c\\\n\\> d\\\n\\+ e\\\n\\= f\\\n&#32; g\n"},
	{"hard break", "a\\\nb\n"},
	{"trailing space", "a&#32;\n"},
	{"links", "[a](/pages/p1) [b](#top) [c](https://x.example/a) [**d**](other) [](empty)\n"},
	{"link destinations", "[a](<with space>) [b](<a(b>) [c](https://en.example/Go_(language)) [d](<>) [e](x&amp;amp;y)\n"},
	{"autolinks", "<https://auto.example> and <me@x.example>\n"},
	{"marks around a link", "*see [a](x) here*\n"},
	{"images", "![one](/files/f1)\n![](https://i.example/b.png)\n"},
	{"inline image", "see ![alt \\*](x.png) here\n"},
	{"linked image", "[![i](/files/f1)](/pages/p1)\n"},
	{"unordered list", "- a\n- b\n  - c\n"},
	{"ordered list", "1. a\n2. b\n"},
	{"ordered list start", "3. a\n\n   b\n"},
	{"empty item", "-\n- b\n"},
	{"sublist that cannot interrupt", "- a\n\n  3. b\n"},
	{"lists one after another", "- a\n\n* b\n\n- c\n"},
	{"ordered lists one after another", "1. a\n\n1) b\n"},
	{"divider in an item", "* ---\n"},
	{"nested empty items", "* - -\n"},
	{"divider after a paragraph in an item", "- a\n\n  ---\n- b\n"},
	{"code", "```go\nfunc f() {\n\treturn\n}\n```\n"},
	{"empty code", "```\n```\n"},
	{"code with fences", "````md\n```\n~~~\n````\n"},
	{"code with a backtick syntax", "~~~a`b\nx\n~~~\n"},
	{"code in a list", "- ```sh\n  ls\n  ```\n"},
	{"blockquote", "> a\n>\n> > b\n"},
	{"empty blockquote", ">\n"},
	{"code in a blockquote", "> ```\n> x\n> y\n> ```\n"},
	{"code text in a blockquote", "> `x`\n"},
	{"list in a blockquote", "> - a\n>\n> ---\n"},
	{"hint as written", "> **Warning**\n>\n> Careful.\n"},
	{"divider", "a\n\n---\n\nb\n"},
	{"table", "| a | b | c |\n| --- | :-: | --: |\n| 1 | **2** | [x](y) |\n| \\| | `a\\|b` |  |\n"},
	{"table without rows", "| a |\n| --- |\n"},
	{"table in a list", "- | a |\n  | --- |\n  | 1 |\n"},
	{"html is text", "\\<div>\\\nhtml\\\n\\</div>\n"},
}

func TestMarkdownNormalized(t *testing.T) {
	for _, tt := range normalized {
		t.Run(tt.name, func(t *testing.T) {
			if got := roundTrip(t, tt.md, nil, nil); got != tt.md {
				t.Errorf("Markdown(Document(%q))\n got %q\nwant %q", tt.md, got, tt.md)
			}
		})
	}
}

// markdownRoundTrips are markdown whose document must survive Markdown, including
// inputs the fuzzer once found wrong.
var markdownRoundTrips = []string{
	richMarkdown,
	"a***b***c",
	"*a***b**",
	"*a*b",
	"a *b *c",
	"*a*\t*b*",
	"**a*b*c**",
	"~a~~b~",
	"~~a~~~",
	"\\~~~a~~",
	"&#126;~~a~~",
	"*&#32;a*b",
	"a&#10;b",
	"&#10;a",
	"a\\",
	"a\\\n\\\nb",
	"\\\\\nb",
	"<b>*x*</b>",
	"<A>\n0\x00",
	"a\x00b `c\x00`",
	"```0\x91",
	"0\x9c*\x10*",
	"\xc7*a*",
	"- \n- * *",
	"- - -x",
	"- -\n  b",
	"- > -\n  >\n  > b",
	"- a\n  -\n\n  b",
	">0\n|\n|-",
	"> ```\n> ```",
	"> a\n>\n> ```\n> ```",
	"> | a |\n> | - |\n> | |",
	"~~~     ~`",
	"~~~\t~~~_`",
	"[`<a@b.example># *b](<a b>)",
	"*---*[<https://x.example>](<a b>)",
	"[*<https://x.example>*](y)",
	"![one](x)&#32;![two](y)",
	"![one](x) *a* ![two](y)",
	"| a\\|b | `c\\|d` | `e\\\\|f` |\n| - | - | - |\n| \\\\| | x |",
	"a\n:-",
	"a|b\n-|-",
	"1. a\n1000000000. b",
	"999999999. a\n1. b",
	"- a\n\n\n- b",
	"a\r\nb\r\n\r\n<div>\r\nx\r\n</div>\r\n\r\n```\r\ny\r\n```\r\n",
	"`a\rb`\r> ```\r> x\r> ```\r- c\r\r  d\r",
	"[see <https://a.test>](https://b.test) [*<me@x.example>*](y)",
	"- ```\n  \tx\n  ```",
	"> ```\n> \tx\n> ```",
	"# a #\n# #\n# \\#",
	"Setext\\\nwith break\n===",
	"* >*\n\n  >",
	"    0\r\r",
	">>>>>>>>>>>>>>>",
	"[<A0:\x7f>]()",
	"*![]()*",
	"[](\\\\\\() [](a\\)b)",
	"`  \f  ` ` \v `",
	"![a`\x00\x00`b](x)\n\n| `\x00` |\n| - |",
	"~~![a](x)~~ ![b](y)",
	"| <http://a\\|b> | [<http://c\\|d>](x) |\n| - | - |",
}

func TestMarkdownRoundTrip(t *testing.T) {
	mds := markdownRoundTrips
	for _, tt := range documentTests {
		mds = append(mds, tt.md)
	}
	for _, md := range mds {
		roundTrip(t, md, nil, nil)
		// With links resolved, pages, files and anchors come back.
		roundTrip(t, md, testResolve, resolveIDs)
	}
}

// pieces are the markdown that generated samples are made of: markup,
// characters that need escaping, and text.
var pieces = []string{
	"a", "b", "word", " ", "  ", "\t", "\n", "\n\n", "\r\n", "*", "**", "***", "_", "__", "~", "~~", "`", "``",
	"\\", "\\*", "&amp;", "&#42;", "&#32;", "&", "<", ">", "<b>", "</b>", "<div>\n", "<!-- c -->", "[", "]", "](x)", "](<a b>)",
	"![", "(", ")", "!", "#", "# ", "## ", "- ", "+ ", "* ", "1. ", "2) ", "> ", ">", "|", " | ", "|---|", "-", "---", "===",
	":", "```", "~~~", "```go\n", "    ", "1", "é", "\u00a0", "😀", ".", "<https://x.example>", "<a@b.example>", "[a](b)",
	"[a]: b\n", "[a]", "\\\n", "  \n", "- [ ] ", "| a | b |\n|---|---|\n", "$", "](a(b)c)", "\n| --- |\n", "\\|", "`|`",
	"  - ", "   1. ", "\n  ", "\n    ", "\n> ", "\n- ", "\n1. ", "&copy;", "&#x2a;", "\u2003", "\x7f", "\r", "#\n", "\n===",
	"{% hint style=\"info\" %}\n", "\n{% endhint %}\n", "{% endhint %}", "{%", "%}",
	"<details>\n", "<details open>", "<summary>", "</summary>\n", "\n</details>\n",
}

// samples returns n markdown samples of up to 24 pieces, the same each run.
func samples(n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range r.IntN(24) + 1 {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		out[i] = b.String()
	}
	return out
}

// TestMarkdownRoundTripSamples is the round trip over many markdown samples.
func TestMarkdownRoundTripSamples(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	for _, md := range samples(n) {
		roundTrip(t, md, nil, nil)
	}
}

// markdownTests are JSON documents, with blocks and inlines Document does
// not make, and their markdown.
var markdownTests = []struct{ name, doc, want string }{
	{"refs", `[{"object":"block","type":"paragraph","data":{},"nodes":[
		{"object":"inline","type":"link","data":{"ref":{"kind":"page","page":"p1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a","marks":[]}]}]},
		{"object":"inline","type":"link","data":{"ref":{"kind":"anchor","anchor":"setup","page":"p1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"b","marks":[]}]}]},
		{"object":"inline","type":"link","data":{"ref":{"kind":"anchor","anchor":"top"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"c","marks":[]}]}]},
		{"object":"inline","type":"link","data":{"ref":{"kind":"file","file":"f1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"d","marks":[]}]}]},
		{"object":"inline","type":"link","data":{"ref":{"kind":"space","space":"s1"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":" e","marks":[]}]}]},
		{"object":"inline","type":"inline-image","isVoid":true,"data":{"ref":{"kind":"file","file":"f2"},"alt":"f"}}]}]`,
		"[a](/pages/p1)[b](/pages/p1#setup)[c](#top)[d](/files/f1) e![f](/files/f2)\n"},
	{"link in a link", `[{"object":"block","type":"paragraph","nodes":[
		{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":"y"}},"nodes":[
			{"object":"text","leaves":[{"object":"leaf","text":"a ","marks":[]}]},
			{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":"https://x.example"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"https://x.example","marks":[]}]}]},
			{"object":"inline","type":"link","data":{"ref":{"kind":"url","url":"z"}},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":" b","marks":[]}]}]}]}]}]`,
		"[a https://x.example b](y)\n"},
	{"marks", `[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[
		{"object":"leaf","text":"a","marks":[{"object":"mark","type":"code"},{"object":"mark","type":"bold"}]},
		{"object":"leaf","text":" b ","marks":[{"object":"mark","type":"keyboard"},{"object":"mark","type":"color","data":{"text":"red","background":"default"}}]},
		{"object":"leaf","text":"c","marks":[{"object":"mark","type":"italic"},{"object":"mark","type":"italic"}]}]}]}]`,
		"**`a`**<kbd><mark style=\"color:red;\"> b </mark></kbd>*c*\n"},
	{"tasks", `[{"object":"block","type":"list-tasks","nodes":[
		{"object":"block","type":"list-item","data":{"checked":true},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"done","marks":[]}]}]}]},
		{"object":"block","type":"list-item","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"todo","marks":[]}]}]}]}]}]`,
		"- [x] done\n- [ ] todo\n"},
	{"ordered start", `[{"object":"block","type":"list-ordered","data":{"start":9},"nodes":[
		{"object":"block","type":"list-item","nodes":[{"object":"block","type":"divider","isVoid":true,"data":{}}]},
		{"object":"block","type":"list-item","nodes":[]}]}]`,
		"9. ---\n10.\n"},
	{"hint", `[{"object":"block","type":"hint","data":{"style":"warning"},"nodes":[
		{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Careful.","marks":[]}]}]}]}]`,
		"{% hint style=\"warning\" %}\nCareful.\n{% endhint %}\n"},
	{"expandable", `[{"object":"block","type":"expandable","isVoid":true,"data":{},"fragments":[
		{"object":"fragment","fragment":"expandable-title","type":"expandable-title","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"More ","marks":[]},{"object":"leaf","text":"here","marks":[{"object":"mark","type":"italic"}]}]}]}]},
		{"object":"fragment","fragment":"expandable-body","type":"expandable-body","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Body.","marks":[]}]}]}]}]}]`,
		"<details>\n\n<summary>More *here*</summary>\n\nBody.\n\n</details>\n"},
	{"tabs", `[{"object":"block","type":"tabs","nodes":[
		{"object":"block","type":"tabs-item","data":{"title":"Go"},"nodes":[{"object":"block","type":"code","data":{"syntax":"go"},"nodes":[{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x := 1","marks":[]}]}]}]}]},
		{"object":"block","type":"tabs-item","data":{"title":"Shell"},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Run it.","marks":[]}]}]}]}]}]`,
		"{% tabs %}\n{% tab title=\"Go\" %}\n```go\nx := 1\n```\n{% endtab %}\n\n{% tab title=\"Shell\" %}\nRun it.\n{% endtab %}\n{% endtabs %}\n"},
	{"stepper", `[{"object":"block","type":"stepper","nodes":[
		{"object":"block","type":"stepper-step","data":{},"nodes":[{"object":"block","type":"heading-2","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Install","marks":[]}]}]},{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Get it.","marks":[]}]}]}]},
		{"object":"block","type":"stepper-step","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Use it.","marks":[]}]}]}]}]}]`,
		"{% stepper %}\n{% step %}\n## Install\n\nGet it.\n{% endstep %}\n\n{% step %}\nUse it.\n{% endstep %}\n{% endstepper %}\n"},
	{"inlines", `[{"object":"block","type":"paragraph","nodes":[
		{"object":"inline","type":"emoji","isVoid":true,"data":{"code":"1f600"}},
		{"object":"text","leaves":[{"object":"leaf","text":" ","marks":[]}]},
		{"object":"inline","type":"mention","isVoid":true,"data":{"ref":{"kind":"user","user":"u1"},"name":"Ann"}},
		{"object":"text","leaves":[{"object":"leaf","text":" ","marks":[]}]},
		{"object":"inline","type":"mention","isVoid":true,"data":{"ref":{"kind":"user","user":"u2"}}},
		{"object":"text","leaves":[{"object":"leaf","text":" ","marks":[]}]},
		{"object":"inline","type":"inline-math","isVoid":true,"data":{"formula":"a*b"}},
		{"object":"inline","type":"icon","isVoid":true,"data":{"icon":"gear"}},
		{"object":"inline","type":"annotation","isVoid":false,"fragments":[],"nodes":[{"object":"text","leaves":[{"object":"leaf","text":" noted","marks":[]}]}]},
		{"object":"inline","type":"foo","nodes":[{"object":"text","leaves":[{"object":"leaf","text":" kept","marks":[]}]}]},
		{"object":"inline","type":"bar"}]}]`,
		"😀 [user:u1](user:u1 \"mention\") [user:u2](user:u2 \"mention\") $$a*b$$<i class=\"fa-gear\">:gear:</i> noted kept\n"},
	{"code and math", `[{"object":"block","type":"code","data":{"syntax":"js title"},"nodes":[
		{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"let a","marks":[]}]}]},
		{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"","marks":[]}]}]},
		{"object":"block","type":"code-line","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"` + "```" + `","marks":[]}]}]}]},
		{"object":"block","type":"math","isVoid":true,"data":{"formula":"x^2"}}]`,
		"````js&#32;title\nlet a\n\n```\n````\n\n$$\nx^2\n$$\n"},
	{"table", `[{"object":"block","type":"table","isVoid":true,"data":{
		"view":{"type":"grid","columns":["b","a"],"hideHeader":false},
		"definition":{"a":{"id":"a","title":"A|1","type":"text","textAlignment":"right"},"b":{"id":"b","title":"B","type":"text","textAlignment":"center"}},
		"records":{"x":{"orderIndex":"b","values":{"a":"fa","b":"fb"}},"y":{"orderIndex":"a","values":{"a":2.5,"b":true}}}},
		"fragments":[
		{"object":"fragment","fragment":"fa","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"p|q","marks":[{"object":"mark","type":"code"}]}]}]}]},
		{"object":"fragment","fragment":"fb","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":" r","marks":[]}]}]}]}]}]`,
		"| B | A\\|1 |\n| :-: | --: |\n| true | 2.5 |\n| &#32;r | `p\\|q` |\n"},
	{"images", `[{"object":"block","type":"images","data":{},"isVoid":false,"nodes":[
		{"object":"block","type":"image","isVoid":true,"fragments":[],"data":{"ref":{"kind":"file","file":"f1"},"alt":"[one]"}},
		{"object":"block","type":"image","isVoid":true,"fragments":[],"data":{"ref":{"kind":"url","url":"https://i.example/a b.png"}}}]}]`,
		"![\\[one\\]](/files/f1)\n![](<https://i.example/a b.png>)\n"},
	{"void blocks", `[{"object":"block","type":"embed","isVoid":true,"data":{"url":"https://v.example/1"}},
		{"object":"block","type":"openapi-operation","isVoid":true,"data":{"ref":{"kind":"openapi","spec":"s"},"method":"get","path":"/x"}},
		{"object":"block","type":"divider","isVoid":true,"data":{}}]`,
		"{% embed url=\"https://v.example/1\" %}\n\n{% openapi-operation spec=\"s\" path=\"/x\" method=\"get\" %}\n{% endopenapi-operation %}\n\n---\n"},
	{"unknown blocks", `[{"object":"block","type":"columns","data":{},"isVoid":false,"nodes":[
		{"object":"block","type":"column","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"left","marks":[]}]}]}]},
		{"object":"block","type":"column","data":{},"nodes":[{"object":"block","type":"heading-1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"right","marks":[]}]}]}]}]},
		{"object":"block","type":"widget","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"inline ","marks":[]}]},{"object":"inline","type":"x","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"text","marks":[{"object":"mark","type":"bold"}]}]}]}]},
		{"object":"block","type":"gadget","isVoid":true,"data":{}}]`,
		"{% columns %}\n{% column %}\nleft\n{% endcolumn %}\n\n{% column %}\n# right\n{% endcolumn %}\n{% endcolumns %}\n\ninline **text**\n"},
	{"empty", `[]`, ""},
}

func TestMarkdown(t *testing.T) {
	ref := reference(t)
	for _, tt := range markdownTests {
		t.Run(tt.name, func(t *testing.T) {
			var nodes []any
			if err := json.Unmarshal([]byte(tt.doc), &nodes); err != nil {
				t.Fatal(err)
			}
			doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": nodes}
			got, err := Markdown(doc)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			// Written again, it stays the same (task lists are GFM that Document does not read).
			if again, err := Markdown(Document(got, nil)); tt.name != "tasks" && (err != nil || again != got) {
				t.Errorf("Markdown(Document(Markdown(doc))) = %q, %v; want %q", again, err, got)
			}
		})
	}
	if ref == nil {
		return
	}
	// The documents are valid, except those with nodes of unknown types or a
	// link in a link.
	for _, tt := range markdownTests {
		if tt.name == "unknown blocks" || tt.name == "inlines" || tt.name == "link in a link" {
			continue
		}
		var doc map[string]any
		if err := json.Unmarshal([]byte(`{"object":"document","data":{},"nodes":`+tt.doc+`}`), &doc); err != nil {
			t.Fatal(err)
		}
		if err := ref.CheckSchema("JSONDocument", doc); err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

func TestMarkdownErrors(t *testing.T) {
	para := `{"object":"block","type":"paragraph","nodes":[]}`
	tests := []struct{ doc, want string }{
		{`{"object":"page","nodes":[]}`, `document: object must be "document"`},
		{`{"object":"document"}`, `document.nodes: must be an array`},
		{`{"object":"document","nodes":[` + para + `,3]}`, `document.nodes[1]: not an object`},
		{`{"object":"document","nodes":[{"type":"paragraph"}]}`, `document.nodes[0]: missing "object"`},
		{`{"object":"document","nodes":[{"object":"foo"}]}`, `document.nodes[0]: unknown object "foo"`},
		{`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":{}}]}`, `document.nodes[0].nodes: not an array`},
		{`{"object":"document","nodes":[` + para + `,{"object":"block","type":"list-unordered","nodes":[{"object":"block","type":"list-item","nodes":[
			{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","marks":[]}]}]}]}]}]}`,
			`document.nodes[1].nodes[0].nodes[0].nodes[0].leaves[0].text: must be a string`},
		{`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text"}]}]}`, `document.nodes[0].nodes[0].leaves: must be an array`},
		{`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"a","marks":["bold"]}]}]}]}`,
			`document.nodes[0].nodes[0].leaves[0].marks[0]: not an object`},
		{`{"object":"document","nodes":[{"object":"block","type":"expandable","fragments":[{"object":"fragment","nodes":[` + para + `,{"object":"inline","type":"link","nodes":[null]}]}]}]}`,
			`document.nodes[0].fragments[0].nodes[1].nodes[0]: not an object`},
		{`{"object":"document","nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"inline","type":"foo","nodes":[{"object":"mark","type":"bold"}]}]}]}`,
			`document.nodes[0].nodes[0].nodes[0]: a mark is not inline content`},
	}
	for _, tt := range tests {
		var doc map[string]any
		if err := json.Unmarshal([]byte(tt.doc), &doc); err != nil {
			t.Fatalf("%s: %v", tt.doc, err)
		}
		if _, err := Markdown(doc); err == nil || err.Error() != tt.want {
			t.Errorf("Markdown(%s)\n got error %v\nwant %s", tt.doc, err, tt.want)
		}
	}
	if _, err := Markdown(nil); err == nil {
		t.Error("Markdown(nil): no error")
	}
}

// FuzzMarkdown checks the round trip on any markdown: Markdown writes
// Document(md) without error, and the markdown reads back as the same
// document, also from the document decoded from JSON.
func FuzzMarkdown(f *testing.F) {
	f.Add(richMarkdown)
	for _, tt := range documentTests {
		f.Add(tt.md)
	}
	for _, md := range markdownRoundTrips {
		f.Add(md)
	}
	for _, md := range gitbookSeeds() {
		f.Add(md)
	}
	for _, md := range corpusSeeds(f) {
		f.Add(md)
	}
	for _, md := range samples(200) {
		f.Add(md)
	}
	f.Fuzz(func(t *testing.T, md string) {
		if struckContinuationBytes(Document(md, nil)) {
			if _, err := Markdown(Document(md, nil)); err != nil {
				t.Fatal(err)
			}
			return
		}
		got := roundTrip(t, md, nil, nil)
		if !utf8.ValidString(md) {
			return // JSON cannot carry it
		}
		var decoded map[string]any
		b, err := json.Marshal(Document(md, nil))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &decoded); err != nil {
			t.Fatal(err)
		}
		if fromJSON, err := Markdown(decoded); err != nil || fromJSON != got {
			t.Fatalf("Markdown of the decoded JSON of Document(%q) = %q, %v; want %q", md, fromJSON, err, got)
		}
	})
}

// struckContinuationBytes reports whether v holds text of nothing but
// UTF-8 continuation bytes, struck through or next to struck-through text,
// which cannot always be written back. goldmark takes the character before
// a delimiter to be the one starting at the last rune-start byte, so after
// such text it can see a "~" of the strikethrough before, and "~~" does not
// open or close after a "~". Markdown that gives such text, like
// "*~_\xa4_~*", nests a redundant emphasis around it, which Document does
// not keep (a mark applies once). Text in JSON is valid UTF-8, so Markdown
// never meets it in a request.
func struckContinuationBytes(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		if leaves, ok := v["leaves"].([]any); ok && v["object"] == "text" {
			struck := func(i int) bool {
				if i < 0 || i >= len(leaves) {
					return false
				}
				for _, m := range leaves[i].(map[string]any)["marks"].([]any) {
					if m.(map[string]any)["type"] == "strikethrough" {
						return true
					}
				}
				return false
			}
			for i, l := range leaves {
				s := l.(map[string]any)["text"].(string)
				cont := s != ""
				for j := 0; j < len(s); j++ {
					cont = cont && !utf8.RuneStart(s[j])
				}
				if cont && (struck(i-1) || struck(i) || struck(i+1)) {
					return true
				}
			}
		}
		for _, x := range v {
			if struckContinuationBytes(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if struckContinuationBytes(x) {
				return true
			}
		}
	}
	return false
}

// FuzzJSONToMarkdown checks that Markdown never fails on a document's shape
// other than with an error: any JSON object is written or refused.
func FuzzJSONToMarkdown(f *testing.F) {
	for _, tt := range markdownTests {
		f.Add(`{"object":"document","data":{},"nodes":` + tt.doc + `}`)
	}
	for _, md := range append(append([]string{richMarkdown, "> - a\n>\n> | b |\n> | - |"}, gitbookSeeds()...), corpusSeeds(f)...) {
		b, _ := json.Marshal(Document(md, testResolve))
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, s string) {
		var doc map[string]any
		if json.Unmarshal([]byte(s), &doc) != nil {
			return
		}
		if md, err := Markdown(doc); err == nil {
			Document(md, nil)
		}
	})
}
