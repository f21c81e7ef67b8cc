package site

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire/search"
)

func TestAnswerHTMLIsSafe(t *testing.T) {
	for md, want := range map[string]string{
		"Run <script>alert(1)</script> it.":         "<p>Run <!-- raw HTML omitted -->alert(1)<!-- raw HTML omitted --> it.</p>\n",
		"<div onclick=x>block</div>":                "<!-- raw HTML omitted -->\n",
		"[click](javascript:alert(1))":              `<p><a href="">click</a></p>` + "\n",
		"> quoted\n\nFrom [Install](/s/install#a).": "<blockquote>\n<p>quoted</p>\n</blockquote>\n<p>From <a href=\"/s/install#a\">Install</a>.</p>\n",
		"| a | b |\n|---|---|\n| 1 | ~~2~~ |":       "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td><del>2</del></td>\n</tr>\n</tbody>\n</table>\n",
	} {
		if got := answerHTML(md); got != want {
			t.Errorf("answerHTML(%q) = %q, want %q", md, got, want)
		}
	}
}

func TestLinkCitations(t *testing.T) {
	sources := []search.Source{{URL: "/s/a#x"}, {URL: "/s/b"}}
	got := linkCitations("Use it [1][2], not [3] nor [see](/s/c) or [2](/s/d).", sources)
	want := `Use it [\[1\]](/s/a#x)[\[2\]](/s/b), not [3] nor [see](/s/c) or [2](/s/d).`
	if got != want {
		t.Errorf("linkCitations = %q, want %q", got, want)
	}
	if html := answerHTML(got); !strings.Contains(html, `<a href="/s/a#x">[1]</a><a href="/s/b">[2]</a>`) {
		t.Errorf("html of citations: %q", html)
	}
}
