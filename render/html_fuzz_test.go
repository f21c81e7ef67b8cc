package render

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzHTML renders any markdown, with links resolved and without: it must
// not fail or panic, and what it writes must be inert (no script, no event
// handler, no unsafe URL, no element or attribute HTML does not write) and
// give no id twice.
func FuzzHTML(f *testing.F) {
	for _, tc := range htmlCases {
		f.Add(tc.md)
	}
	for _, md := range gitbookSeeds() {
		f.Add(md)
	}
	if md, err := os.ReadFile(filepath.Join("testdata", "html", "page.md")); err == nil {
		f.Add(string(md))
	}
	for _, md := range corpusSeeds(f) {
		f.Add(md)
	}
	for _, s := range []string{
		"<script>alert(1)</script>",
		"<img src=x onerror=alert(1)>",
		"[x](javascript:alert(1)) [y](JAVA&#x53;CRIPT:alert(1)) [z](<jav\tascript:x>)",
		"![x](data:image/svg+xml,<svg onload=alert(1)>)",
		"{% hint style=\"\\\" onmouseover=alert(1) x=\\\"\" %}\nx\n{% endhint %}\n",
		"{% tabs %}\n{% tab title=\"<img src=x onerror=alert(1)>\" %}\nx\n{% endtab %}\n{% endtabs %}\n",
		"{% code title=\"\\\"><script>\" lineNumbers=\"true\" %}\n```js\nalert(1)\n```\n{% endcode %}\n",
		"{% embed url=\"javascript:alert(1)\" %}\n",
		"<details><summary><script>x</script></summary>\n\n<img src=x onerror=y>\n</details>\n",
		"<figure><img src=\"javascript:alert(1)\" alt=\"\" onerror=\"x\"><figcaption><p><a href=javascript:x>c</a></p></figcaption></figure>\n",
		"> [!NOTE]\n> <script>x</script>\n",
		"## <img src=x onerror=y>\n\n## `<script>`\n",
		"a[^1] b[^1]\n\n[^1]: <b onclick=x>n</b>\n",
		"www.example.com/<script> http://a.test/\"onmouseover=x\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		for _, opt := range []HTMLOptions{{}, htmlOptions("install")} {
			page, err := HTML(md, opt)
			if err != nil {
				t.Fatal(err)
			}
			lower := strings.ToLower(page.Body)
			if strings.Contains(lower, "<script") {
				t.Fatalf("<script in %q", page.Body)
			}
			if err := inert(page.Body); err != nil {
				t.Fatalf("%v in %q", err, page.Body)
			}
			seen := map[string]bool{}
			for _, id := range attrValues(t, page.Body, "id") {
				if seen[id] {
					t.Fatalf("id %q twice in %q", id, page.Body)
				}
				seen[id] = true
			}
			for _, h := range page.Headings {
				if !seen[h.ID] || h.Level < 2 || h.Level > 3 {
					t.Fatalf("heading %+v not in %q", h, page.Body)
				}
			}
			if utf8.ValidString(md) && !utf8.ValidString(page.Body) {
				t.Fatalf("invalid UTF-8 in %q", page.Body)
			}
		}
	})
}
