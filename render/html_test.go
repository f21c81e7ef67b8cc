package render

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// htmlOptions resolves links in a small space: intro and guides at the
// top, install under guides, secret hidden (not reachable), and two files.
func htmlOptions(pageID string) HTMLOptions {
	tree := &content.Tree{
		Pages: map[string]*content.Page{
			"intro":   {ID: "intro", Slug: "intro"},
			"guides":  {ID: "guides", Slug: "guides", Children: []string{"install"}},
			"install": {ID: "install", Slug: "install"},
			"secret":  {ID: "secret", Slug: "secret", Hidden: true},
		},
		Root: []string{"intro", "guides", "secret"},
		Files: map[string]*content.File{
			"f1": {ID: "f1", Name: "logo.png", Width: 640, Height: 480},
			"f2": {ID: "f2", Name: "guide.pdf"},
		},
	}
	return HTMLOptions{
		PageID: pageID,
		Resolver: &Resolver{
			Tree:    tree,
			Paths:   map[string]string{"intro": "README.md", "guides": "guides/README.md", "install": "guides/install.md", "secret": "secret.md"},
			Files:   map[string]string{"f1": "logo.png", "f2": "guide.pdf"},
			AppHost: "docs.quire.test",
		},
		PageURL: func(id, anchor string) (string, bool) {
			if id == "secret" {
				return "", false
			}
			if anchor != "" {
				return "/s/" + id + "#" + anchor, true
			}
			return "/s/" + id, true
		},
		FileURL: func(id string) string { return "/f/" + id },
	}
}

// htmlCases are markdown, parts its HTML must hold and parts it must not.
var htmlCases = []struct {
	name      string
	md        string
	want, not []string
}{
	// GitBook's marks
	{"marks", "<kbd>K</kbd> x<sup>2</sup> H<sub>2</sub>O <mark style=\"color:red;background-color:$primary;\">**c**</mark> <mark>d</mark>\n",
		[]string{"<kbd>K</kbd>", "x<sup>2</sup>", "H<sub>2</sub>O", `<mark class="mark-text-red mark-bg-primary"><strong>c</strong></mark>`, "<mark>d</mark>"}, nil},
	{"unpaired mark tags are dropped", "<sup>a <kbd>b</sup> <mark style=\"color:#f00\">c</mark> <mark onclick=\"x\">d</mark>\n",
		[]string{"<p><sup>a b</sup> c d</p>"}, []string{"kbd", "mark", "#f00", "onclick"}},
	{"expression and button", "<code class=\"expression\">space.vars.x</code> <a href=\"https://x.example/\" class=\"button primary\" data-icon=\"rocket\">Go *now*</a>\n",
		[]string{`<code class="expression">space.vars.x</code>`, `<a class="button button-primary" href="https://x.example/" rel="noopener">Go <em>now</em></a>`}, []string{"data-icon"}},
	{"unsafe button", "<a href=\"javascript:alert(1)\" class=\"button primary\">x</a> [<a href=\"y\" class=\"button primary\">in a link</a>](z)\n",
		[]string{"<p>x "}, []string{"javascript", "button"}},
	{"stepper", "{% stepper %}\n{% step %}\n### One\n{% endstep %}\n\n{% step %}\nTwo\n{% endstep %}\n{% endstepper %}\n",
		[]string{`<ol class="stepper">` + "\n" + `<li class="step">` + "\n" + `<h3 id="one">`, "<p>Two</p>\n</li>\n</ol>"}, []string{"{%"}},
	{"columns", "{% columns %}\n{% column width=\"50%\" %}\na\n{% endcolumn %}\n\n{% column %}\nb\n{% endcolumn %}\n{% endcolumns %}\n",
		[]string{`<div class="columns">` + "\n" + `<div class="column">` + "\n<p>a</p>\n</div>\n" + `<div class="column">`}, []string{"{%", "50%"}},
	{"updates", "{% updates format=\"full\" %}\n{% update date=\"2026-05-25\\\"<b>\" %}\n## New\n{% endupdate %}\n{% endupdates %}\n",
		[]string{`<div class="updates">` + "\n" + `<div class="update">` + "\n" + `<p class="update-date">2026-05-25&#34;&lt;b&gt;</p>`}, []string{"{%", "<b>"}},
	// GitBook blocks
	{"hint", "{% hint style=\"success\" %}\nDone *well*.\n{% endhint %}\n",
		[]string{`<div class="hint hint-success" role="note" aria-label="Success">` + "\n<p>Done <em>well</em>.</p>\n</div>"}, []string{"{%"}},
	{"hint styles", "{% hint style=\"danger\" %}\nx\n{% endhint %}\n\n{% hint style=\"warning\" %}\nx\n{% endhint %}\n\n{% hint style=\"info\" %}\nx\n{% endhint %}\n",
		[]string{`hint hint-danger`, `hint hint-warning`, `hint hint-info`}, nil},
	{"hint unknown style", "{% hint style=\"pink\" %}\nx\n{% endhint %}\n", []string{`<div class="hint hint-info" role="note" aria-label="Info">`}, []string{"pink"}},
	{"hint style injection", "{% hint style=\"\\\" onmouseover=alert(1) x=\\\"\" %}\nx\n{% endhint %}\n",
		[]string{`<div class="hint hint-info" role="note" aria-label="Info">`}, []string{"onmouseover"}},
	{"hint holds markdown", "{% hint style=\"info\" %}\n## In a hint\n\n- a\n  - b\n\n```go\nx := 1\n```\n{% endhint %}\n",
		[]string{"<ul>\n<li>a\n<ul>\n<li>b</li>", `<span class="nx">x</span>`, `<h2 id="in-a-hint">`}, nil},
	{"hint ends a paragraph", "{% hint style=\"info\" %}\nline one\n{% endhint %}\nafter\n", []string{"<p>line one</p>\n</div>\n<p>after</p>"}, nil},
	{"hint unclosed", "{% hint style=\"info\" %}\nText.\n", []string{"<p>Text.</p>"}, []string{"hint", "{%"}},
	{"end tag alone", "Text.\n{% endhint %}\n", []string{"<p>Text.</p>"}, []string{"{%"}},
	{"other GitBook tags", "{% content-ref url=\"guides/install.md\" %}\n[guides/install.md](guides/install.md)\n{% endcontent-ref %}\n",
		[]string{`<p><a href="/s/install">guides/install.md</a></p>`}, []string{"{%"}},
	{"not a tag", "{% if x %} stays\n", []string{"<p>{% if x %} stays</p>"}, nil},
	{"tabs", "{% tabs %}\n{% tab title=\"Go\" %}\n```go\nfunc f() {}\n```\n{% endtab %}\n\n{% tab title=\"Shell & co\" %}\nRun *it*.\n{% endtab %}\n{% endtabs %}\n",
		[]string{
			`<div class="tabs">` + "\n" + `<div class="tabs-list" role="tablist" hidden>` +
				`<button type="button" class="tab" role="tab" id="tab-go" aria-controls="tab-go-panel" aria-selected="true" tabindex="0">Go</button>` +
				`<button type="button" class="tab" role="tab" id="tab-shell--co" aria-controls="tab-shell--co-panel" aria-selected="false" tabindex="-1">Shell &amp; co</button></div>`,
			`<div class="tab-panel" role="tabpanel" id="tab-go-panel" aria-labelledby="tab-go" tabindex="0">` + "\n" + `<div class="tab-title">Go</div>`,
			`<span class="kd">func</span>`,
			`<div class="tab-title">Shell &amp; co</div>` + "\n<p>Run <em>it</em>.</p>\n</div>\n</div>",
		}, []string{"{%"}},
	{"tabs ids unique", "{% tabs %}\n{% tab title=\"Go\" %}\na\n{% endtab %}\n{% endtabs %}\n\n{% tabs %}\n{% tab title=\"Go\" %}\nb\n{% endtab %}\n{% endtabs %}\n\n## Tab go\n",
		[]string{`id="tab-go"`, `id="tab-go-1"`, `aria-labelledby="tab-go-1"`, `<h2 id="tab-go-2">`}, nil},
	{"tab end tag left out", "{% tabs %}\n{% tab title=\"A\" %}\none\n{% tab title=\"B\" %}\ntwo\n{% endtab %}\n{% endtabs %}\n",
		[]string{`id="tab-a-panel"`, "<p>one</p>\n</div>", `id="tab-b-panel"`, "<p>two</p>"}, nil},
	{"tab outside tabs", "{% tab title=\"A\" %}\none\n{% endtab %}\n", []string{"<p>one</p>"}, []string{"tab-panel", "{%"}},
	{"code title and line numbers", "{% code title=\"main.go\" lineNumbers=\"true\" %}\n```go\npackage main\n\nfunc main() {}\n```\n{% endcode %}\n",
		[]string{
			`<div class="code-block"><div class="code-title">main.go</div>` + "\n" + `<pre class="chroma" tabindex="0"><code class="language-go">` +
				`<span class="ln" aria-hidden="true">1</span><span class="kn">package</span> <span class="nx">main</span>` + "\n" +
				`<span class="ln" aria-hidden="true">2</span>` + "\n" + `<span class="ln" aria-hidden="true">3</span><span class="kd">func</span>`,
			"</code></pre></div>\n",
		}, []string{`<span class="ln" aria-hidden="true">4</span>`}},
	{"code title only", "{% code title=\"a &lt;b&gt;.txt\" %}\n```\n<x>\n```\n{% endcode %}\n",
		[]string{`<div class="code-title">a &lt;b&gt;.txt</div>`, "<code>&lt;x&gt;\n</code>"}, []string{`class="ln"`}},
	{"embed", "{% embed url=\"https://www.youtube.com/watch?v=x&t=1\" %}\n",
		[]string{`<div class="embed"><a class="embed-card" href="https://www.youtube.com/watch?v=x&amp;t=1" rel="noopener"><span class="embed-title">www.youtube.com</span><span class="embed-url">https://www.youtube.com/watch?v=x&amp;t=1</span></a></div>`},
		[]string{"iframe"}},
	{"embed with caption", "{% embed url=\"https://example.com\" %}\nA *caption*.\n{% endembed %}\n\n{% embed url=\"https://example.org\" %}\n",
		[]string{`</a><div class="embed-caption">` + "\n<p>A <em>caption</em>.</p>\n</div></div>", `href="https://example.org" rel="noopener"><span class="embed-title">example.org</span><span class="embed-url">https://example.org</span></a></div>`}, nil},
	{"embed javascript", "{% embed url=\"javascript:alert(1)\" %}\n", []string{`<div class="embed"><span class="embed-title">`}, []string{"href"}},
	{"embed file", "{% file src=\"guide.pdf\" %}\n", []string{`<div class="embed embed-file"><a class="embed-card" href="/f/f2"><span class="embed-title">guide.pdf</span>`}, nil},
	{"details GitBook", "<details>\n\n<summary>More <em>here</em> &amp; *there*</summary>\n\nBody **bold**.\n\n- a\n\n</details>\n\nAfter.\n",
		[]string{"<details class=\"expandable\">\n<summary>More here &amp; <em>there</em></summary>\n<p>Body <strong>bold</strong>.</p>\n<ul>\n<li>a</li>\n</ul>\n</details>\n<p>After.</p>"}, nil},
	{"details one line summary", "<details open><summary>T</summary>\n\nx\n</details>\n", []string{"<details class=\"expandable\" open>\n<summary>T</summary>\n<p>x</p>\n</details>"}, nil},
	{"details nested", "<details>\n<summary>A</summary>\n\n<details>\n<summary>B</summary>\n\ninner\n\n</details>\n\nouter\n\n</details>\n",
		[]string{"<summary>B</summary>\n<p>inner</p>\n</details>\n<p>outer</p>\n</details>"}, nil},
	{"details unclosed", "<details>\n<summary>A</summary>\n\nx\n", []string{"<p>x</p>"}, []string{"<details", "<summary"}},
	{"details attributes", "<details onclick=\"alert(1)\">\n\nx\n\n</details>\n", []string{"<p>x</p>"}, []string{"<details", "onclick"}},
	{"figure", `<figure><img src="logo.png" alt="The logo" width="100"><figcaption><p>Our <strong>logo</strong></p></figcaption></figure>` + "\n",
		[]string{`<figure class="figure"><img src="/f/f1" alt="The logo" loading="lazy" width="640" height="480">` + "\n<figcaption>Our logo</figcaption>\n</figure>"}, nil},
	{"figure in a div", `<div data-full-width="true"><figure><img src="https://img.test/a.png" alt="" width="300"><figcaption></figcaption></figure></div>` + "\n",
		[]string{`<figure class="figure"><img src="https://img.test/a.png" alt="" loading="lazy" width="300">` + "\n</figure>"}, []string{"figcaption", "<div"}},
	{"figure picture", `<figure><picture><source srcset="d.png" media="(prefers-color-scheme: dark)"><img src="logo.png" alt="L"></picture><figcaption><p>c</p></figcaption></figure>` + "\n",
		[]string{`<img src="/f/f1" alt="L"`, "<figcaption>c</figcaption>"}, []string{"srcset", "source"}},
	{"gallery", `<div align="left"><figure><img src="logo.png" alt="A"><figcaption><p>a</p></figcaption></figure> <figure><img src="https://img.test/b.png" alt="B"><figcaption></figcaption></figure></div>` + "\n",
		[]string{`<div class="figures figures-left">` + "\n" + `<figure class="figure"><img src="/f/f1" alt="A" loading="lazy" width="640" height="480">` + "\n<figcaption>a</figcaption>\n</figure>\n" +
			`<figure class="figure"><img src="https://img.test/b.png" alt="B" loading="lazy">` + "\n</figure>\n</div>"}, nil},
	{"drawing", `<img src="logo.png" alt="A drawing" class="gitbook-drawing">` + "\n",
		[]string{`<div class="figures">` + "\n" + `<figure class="figure"><img src="/f/f1" alt="A drawing" loading="lazy" width="640" height="480">` + "\n</figure>\n</div>"}, nil},
	{"integration block", "a\n\n{% @arcade/embed url=\"https://x.example\" %}\n\nb\n", []string{"<p>a</p>\n<p>b</p>"}, []string{"arcade", "{%"}},
	{"prompt", "{% prompt description=\"d\" icon=\"gear\" %}\n```markdown\nAsk this.\n```\n{% endprompt %}\n", []string{"Ask this."}, []string{"{%", "prompt"}},
	{"math", "$$\na < b\n$$\n\nInline $$x^2 <script>$$ and \\$\\$ dollars.\n", []string{`<div class="math math-block">a &lt; b</div>`,
		`<p>Inline <span class="math">x^2 &lt;script&gt;</span> and $$ dollars.</p>`}, []string{"<script"}},
	{"figure onerror", `<figure><img src="x.png" onerror="alert(1)" alt="x"><figcaption>c</figcaption></figure>` + "\n",
		[]string{`<span class="broken-link">x</span>`}, []string{"onerror"}},
	{"figure javascript", `<figure><img src="javascript:alert(1)" alt="x"></figure>` + "\n", []string{"<figure class=\"figure\">x\n</figure>"}, []string{"<img"}},
	// Hints as blockquotes
	{"GitHub alerts", "> [!NOTE]\n> Useful.\n\n> [!TIP]\n> a\n\n> [!IMPORTANT]\n> b\n\n> [!WARNING]\n> c\n\n> [!CAUTION]\n> d\n",
		[]string{
			`<div class="hint hint-info" role="note" aria-label="Note">` + "\n<p>Useful.</p>\n</div>",
			`<div class="hint hint-success" role="note" aria-label="Tip">`, `<div class="hint hint-info" role="note" aria-label="Important">`,
			`<div class="hint hint-warning" role="note" aria-label="Warning">`, `<div class="hint hint-danger" role="note" aria-label="Caution">`,
		}, []string{"[!", "blockquote"}},
	{"GitHub alert blocks", "> [!note]\n>\n> - a\n> - b\n", []string{`<div class="hint hint-info" role="note" aria-label="Note">` + "\n<ul>\n<li>a</li>"}, []string{"<p></p>"}},
	{"not an alert", "> [!NOTE] and more\n", []string{"<blockquote>"}, []string{"hint"}},
	{"Quire hint", "> **Danger**\n>\n> Do *not*.\n", []string{`<div class="hint hint-danger" role="note" aria-label="Danger">` + "\n<p>Do <em>not</em>.</p>\n</div>"}, []string{"<strong>", "blockquote"}},
	{"not a Quire hint", "> **Warning** on the same line\n\n> **Note**\n>\n> x\n", []string{"<blockquote>\n<p><strong>Warning</strong> on", "<strong>Note</strong>"}, []string{"hint"}},
	// GitHub-flavoured markdown
	{"table", "| a | b |\n|---|:-:|\n| 1 | 2<br>3 |\n", []string{"<table>", `<td style="text-align:center">2<br>3</td>`}, nil},
	{"task list", "- [x] done\n- [ ] todo\n", []string{`<li><input checked="" disabled="" type="checkbox"> done</li>`, `<li><input disabled="" type="checkbox"> todo</li>`}, nil},
	{"strikethrough", "~~gone~~\n", []string{"<p><del>gone</del></p>"}, nil},
	{"linkify", "See www.example.com, https://a.test/x and me@mail.test.\n",
		[]string{`<a href="http://www.example.com" rel="noopener">www.example.com</a>`, `<a href="https://a.test/x" rel="noopener">https://a.test/x</a>`, `<a href="mailto:me@mail.test">me@mail.test</a>`}, nil},
	{"footnotes", "A[^n] and B[^n] and C[^m].\n\n[^m]: Em.\n[^n]: En.\n",
		[]string{`<sup id="fnref:1"><a href="#fn:1" class="footnote-ref" role="doc-noteref">1</a></sup>`, `<sup id="fnref1:1">`, `<li id="fn:1">` + "\n<p>En.", `<li id="fn:2">` + "\n<p>Em."}, nil},
	{"footnote undefined", "A[^x].\n", []string{"<p>A[^x].</p>"}, nil},
	// headings
	{"heading ids", "# Top\n\n## Install `quire` **now**!\n\n### Über uns\n\n## Install quire now\n\n####\n",
		[]string{
			`<h1 id="top">Top<a class="anchor" href="#top" aria-hidden="true" tabindex="-1"></a></h1>`,
			`<h2 id="install-quire-now">Install <code>quire</code> <strong>now</strong>!<a class="anchor" href="#install-quire-now"`,
			`<h3 id="über-uns">`, `<h2 id="install-quire-now-1">`, `<h4 id="section">`,
		}, nil},
	// code
	{"code unknown language", "```nosuchlang\n<b>&amp;</b>\n```\n", []string{`<pre class="chroma" tabindex="0"><code class="language-nosuchlang">&lt;b&gt;&amp;amp;&lt;/b&gt;` + "\n</code></pre>"}, []string{"<b>"}},
	{"code language injection", "```\"><script>alert(1)</script>\nx\n```\n", []string{"<code>x\n</code>"}, []string{"<script"}},
	{"indented code", "    <i>\n", []string{`<div class="code-block"><pre class="chroma" tabindex="0"><code>&lt;i&gt;` + "\n</code></pre></div>"}, nil},
	// links
	{"page links", "[a](guides/install.md) [b](/guides/install#step-2) [c](/pages/intro) [d](#here) [e](ref:nothing)",
		[]string{`<a href="/s/install">a</a>`, `<a href="/s/install#step-2">b</a>`, `<a href="/s/intro">c</a>`, `<a href="#here">d</a>`, `<span class="broken-link">e</span>`}, nil},
	{"unpublished page", "[secret](secret.md) and [**bold**](/missing)", []string{"<p>secret and <span class=\"broken-link\"><strong>bold</strong></span></p>"}, []string{"href"}},
	{"file links", "[guide](guide.pdf \"The guide\") [gone](/files/f9)", []string{`<a href="/f/f2" title="The guide">guide</a>`, `<span class="broken-link">gone</span>`}, nil},
	{"external links", "[x](https://a.test/?q=1&r=2) [y](https://docs.quire.test/s/z) [m](mailto:me@a.test) [p](tel:+100)",
		[]string{`<a href="https://a.test/?q=1&amp;r=2" rel="noopener">x</a>`, `<a href="https://docs.quire.test/s/z">y</a>`, `<a href="mailto:me@a.test">m</a>`, `<a href="tel:+100">p</a>`}, nil},
	{"javascript links", "[a](javascript:alert(1)) [b](JavaScript:alert(1)) [c](&#106;avascript:alert(1)) [d](<java\tscript:alert(1)>) [e](vbscript:x) [f](data:text/html,x) <javascript:alert(1)>",
		[]string{`<p>a b c <span class="broken-link">d</span> e f javascript:alert(1)</p>`}, []string{"href"}},
	{"reference links", "[a][r]\n\n[r]: /guides/install \"T\"\n", []string{`<a href="/s/install" title="T">a</a>`}, nil},
	// images
	{"images", "![Logo](logo.png) ![](https://img.test/x.png \"t\") ![gone](nothing.png) ![pg](/guides) ![d](data:image/png;base64,AAAA) ![j](javascript:x)",
		[]string{
			`<img src="/f/f1" alt="Logo" loading="lazy" width="640" height="480">`,
			`<img src="https://img.test/x.png" alt="" loading="lazy" title="t">`,
			`<span class="broken-link">gone</span>`, `<span class="broken-link">pg</span>`, " d j</p>",
		}, []string{"data:", "javascript"}},
	// raw HTML
	{"raw HTML", "<script>alert(1)</script>\n\n<div onclick=\"x()\">d</div>\n\nText <img src=x onerror=alert(1)> <a href=\"javascript:x\">a</a> <iframe src=\"https://e.test\"></iframe> <br/> <style>p{}</style>\n",
		[]string{"<p>Text  a  <br> p{}</p>"}, []string{"<script", "onclick", "onerror", "<img", "<iframe", "<style", "javascript", "<div"}},
}

func TestHTML(t *testing.T) {
	for _, tc := range htmlCases {
		t.Run(tc.name, func(t *testing.T) {
			page, err := HTML(tc.md, htmlOptions("intro"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(page.Body, w) {
					t.Errorf("HTML lacks %q:\n%s", w, page.Body)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(page.Body, n) {
					t.Errorf("HTML holds %q:\n%s", n, page.Body)
				}
			}
			if err := inert(page.Body); err != nil {
				t.Errorf("%v:\n%s", err, page.Body)
			}
		})
	}
}

// TestHTMLWithoutResolver: links stay as written, if safe.
func TestHTMLWithoutResolver(t *testing.T) {
	page, err := HTML("[a](guides/install.md#x) [b](javascript:alert(1)) ![c](<img/a b.png>) [d](https://a.test)", HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `<p><a href="guides/install.md#x">a</a> b <img src="img/a%20b.png" alt="c" loading="lazy"> <a href="https://a.test" rel="noopener">d</a></p>` + "\n"
	if diff := cmp.Diff(want, page.Body); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestHTMLHeadings(t *testing.T) {
	md := "Intro.\n\n## Get `started`\n\n### With *care*\n\n#### Deep\n\n> ## Quoted\n\n{% hint style=\"info\" %}\n## Hinted\n{% endhint %}\n\n## Get started\n\n# Top\n"
	page, err := HTML(md, HTMLOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Heading{
		{Level: 2, ID: "get-started", Text: "Get started"},
		{Level: 3, ID: "with-care", Text: "With care"},
		{Level: 2, ID: "get-started-1", Text: "Get started"},
	}
	if diff := cmp.Diff(want, page.Headings); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	seen := map[string]bool{}
	for _, id := range attrValues(t, page.Body, "id") {
		if seen[id] {
			t.Errorf("id %q twice", id)
		}
		seen[id] = true
	}
}

func TestSlugIDs(t *testing.T) {
	ids := idSet{seen: map[string]bool{}, next: map[string]int{}}
	var got []string
	for _, s := range []string{"A b", "a-b", "a-b-1", "A B", "A b", "", "!!", "Ünïcode — dash", "snake_case v1.2"} {
		got = append(got, ids.unique(slug(s)))
	}
	want := []string{"a-b", "a-b-1", "a-b-1-1", "a-b-2", "a-b-3", "section", "section-1", "ünïcode--dash", "snake_case-v12"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestHTMLQuireHints renders the hints, expandables and tabs Quire's own
// markdown writer makes: a hint is a hint again, the others bold titles.
func TestHTMLQuireHints(t *testing.T) {
	for _, style := range []string{"info", "success", "warning", "danger"} {
		md, err := Markdown(map[string]any{"object": "document", "nodes": []any{
			map[string]any{"object": "block", "type": "hint", "data": map[string]any{"style": style}, "nodes": []any{
				map[string]any{"object": "block", "type": "paragraph", "nodes": []any{
					map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "Careful.", "marks": []any{}}}},
				}},
			}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		page, err := HTML(md, HTMLOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf(`<div class="hint hint-%s" role="note" aria-label="%s%s">`+"\n<p>Careful.</p>\n</div>\n", style, strings.ToUpper(style[:1]), style[1:])
		if page.Body != want {
			t.Errorf("%q: got %q, want %q", md, page.Body, want)
		}
	}
}

// TestHTMLGolden renders a page of every form; testdata/html/page.html is
// rewritten with -update.
func TestHTMLGolden(t *testing.T) {
	md, err := os.ReadFile(filepath.Join("testdata", "html", "page.md"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := HTML(string(md), htmlOptions("intro"))
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "html", "page.html")
	if *update {
		if err := os.WriteFile(golden, []byte(page.Body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), page.Body); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if err := inert(page.Body); err != nil {
		t.Error(err)
	}
}

// TestHTMLConcurrent renders pages at once: the parser is shared.
func TestHTMLConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for _, tc := range htmlCases {
				if _, err := HTML(tc.md, htmlOptions("install")); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

func TestHighlightCSS(t *testing.T) {
	css := HighlightCSS()
	for _, w := range []string{
		":root .chroma{color:", ":root .chroma .kd{color:#", "[data-theme=dark] .chroma{color:#",
		"[data-theme=dark] .chroma .kd{color:#", "@media (prefers-color-scheme:dark){\n:root:not([data-theme=light]) .chroma{color:#",
		":root:not([data-theme=light]) .chroma .kd{color:#",
		".chroma .ln{margin-right:1em;-webkit-user-select:none;user-select:none}",
	} {
		if !strings.Contains(css, w) {
			t.Errorf("CSS lacks %q", w)
		}
	}
	// Each theme states the same properties of the same classes, so none
	// shows through the other.
	rules := map[string][]string{}
	for _, line := range strings.Split(css, "\n") {
		for _, scope := range []string{":root ", "[data-theme=dark] "} {
			if rest, ok := strings.CutPrefix(line, scope); ok {
				sel, decls, _ := strings.Cut(rest, "{")
				var props []string
				for _, d := range strings.Split(strings.TrimSuffix(decls, "}"), ";") {
					p, _, _ := strings.Cut(d, ":")
					props = append(props, p)
				}
				rules[scope] = append(rules[scope], sel+" "+strings.Join(props, ","))
			}
		}
	}
	if len(rules[":root "]) < 20 {
		t.Errorf("only %d light rules", len(rules[":root "]))
	}
	if diff := cmp.Diff(rules[":root "], rules["[data-theme=dark] "]); diff != "" {
		t.Errorf("light and dark rules differ (-light +dark)\n%s", diff)
	}
}

// Elements and attributes HTML writes; inert refuses any other.
var (
	htmlElements = strings.Fields(`a blockquote br button code del details div em figcaption figure h1 h2 h3 h4 h5 h6 hr
		img input kbd li mark ol p pre span strong sub summary sup table tbody td th thead tr ul`)
	htmlAttributes = strings.Fields(`alt aria-controls aria-hidden aria-label aria-labelledby aria-selected checked class
		disabled height hidden href id loading open rel role src start style tabindex title type width`)
)

// inert reports the first markup in body that could run script or load
// what it should not: an element or attribute HTML never writes, an event
// handler, a URL with a scheme other than http(s) (mailto and tel for
// links), or a style other than a table cell's alignment.
func inert(body string) error {
	z := html.NewTokenizer(strings.NewReader(body))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() == io.EOF {
				return nil
			}
			return z.Err()
		case html.StartTagToken, html.SelfClosingTagToken:
			if err := inertTag(z.Token()); err != nil {
				return err
			}
		case html.CommentToken, html.DoctypeToken:
			return fmt.Errorf("markup %q", z.Token().String())
		}
	}
}

func inertTag(tok html.Token) error {
	if !contains(htmlElements, tok.Data) {
		return fmt.Errorf("element <%s>", tok.Data)
	}
	for _, a := range tok.Attr {
		v := strings.ToLower(strings.TrimSpace(a.Val))
		switch {
		case !contains(htmlAttributes, a.Key) || strings.HasPrefix(a.Key, "on"):
			return fmt.Errorf("attribute %s of <%s>", a.Key, tok.Data)
		case a.Key == "style" && !(v == "text-align:left" || v == "text-align:center" || v == "text-align:right"):
			return fmt.Errorf("style %q", a.Val)
		case a.Key == "href" || a.Key == "src":
			if s := urlScheme(v); s != "" && s != "http" && s != "https" && (a.Key == "src" || s != "mailto" && s != "tel") {
				return fmt.Errorf("%s %q", a.Key, a.Val)
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// attrValues returns the values of attribute key in body.
func attrValues(t *testing.T, body, key string) []string {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(body))
	var vals []string
	for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
		for _, a := range z.Token().Attr {
			if a.Key == key {
				vals = append(vals, a.Val)
			}
		}
	}
	return vals
}

// TestHTMLAdaptive: adaptive content is shown as the reader sees it, its
// tags never, and AdaptiveExpressions lists what the HTML depends on.
func TestHTMLAdaptive(t *testing.T) {
	md := "a\n\n{% if visitor.claims.plan == \"pro\" %}\n## Pro\n\nsecret\n{% endif %}\n\n- {% if visitor.claims.beta %}\n  beta\n  {% endif %}\n\nb\n"
	for _, tt := range []struct {
		name      string
		sees      func(string) bool
		want, not []string
	}{
		{"preview", nil, []string{`<h2 id="pro">Pro<a class="anchor"`, "<p>secret</p>", "beta", "<p>b</p>"}, []string{"{%", "endif"}},
		{"sees pro", func(e string) bool { return e == `visitor.claims.plan == "pro"` }, []string{"<p>secret</p>", "<p>b</p>"}, []string{"beta", "{%"}},
		{"sees none", func(string) bool { return false }, []string{"<p>a</p>", "<p>b</p>"}, []string{"Pro", "secret", "beta", "{%"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opt := htmlOptions("intro")
			opt.Sees = tt.sees
			page, err := HTML(md, opt)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(page.Body, w) {
					t.Errorf("HTML lacks %q:\n%s", w, page.Body)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(page.Body, n) {
					t.Errorf("HTML holds %q:\n%s", n, page.Body)
				}
			}
			for _, h := range page.Headings {
				if h.Text == "Pro" {
					t.Errorf("a heading in adaptive content is in the table of contents")
				}
			}
		})
	}
	got := AdaptiveExpressions(md + "> {% if visitor.claims.beta %}\n```\n{% if in code %}\n```\n")
	want := []string{`visitor.claims.plan == "pro"`, "visitor.claims.beta", "in code"}
	if !slices.Equal(got, want) {
		t.Errorf("AdaptiveExpressions = %q, want %q", got, want)
	}
}
