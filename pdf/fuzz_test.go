package pdf

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
)

// FuzzLayout lays out and draws any markdown as a page: it must end,
// within its limits, without a panic. Writing the drawn document (gopdf
// compressing its streams) is left out: it reads none of the markdown,
// and its compression, instrumented, slows fuzzing to a halt. Seeds are
// small; TestPathologicalPages has the large.
func FuzzLayout(f *testing.F) {
	f.Add("Quire keeps **bold**, *italic*, ~~struck~~, `code` and [links](https://example.com).[^1]\n\n[^1]: Note.\n")
	f.Add(strings.Repeat("> ", 40) + "deep\n")
	f.Add(strings.Repeat("{% hint %}\n", 10) + "x\n" + strings.Repeat("{% endhint %}\n", 10))
	f.Add("| a | b |\n|---|:-:|\n| `x` | **y** |\n")
	f.Add("{% tabs %}\n{% tab title=\"A\" %}\n- [x] a\n{% endtab %}\n{% endtabs %}\n\n<details><summary>S</summary>\n\nx\n\n</details>\n")
	f.Add("```go\nfunc main() {}\n```\n\n{% code title=\"a\" lineNumbers=\"true\" %}\n```\nx\n```\n{% endcode %}\n")
	f.Add("語語語 Ελληνικά\u200b ![alt](x.png) {% embed url=\"https://e.com\" %}\n")
	f.Fuzz(func(t *testing.T, md string) {
		tree := &content.Tree{
			Pages: map[string]*content.Page{"p": {ID: "p", Title: "Page", Slug: "p", Kind: content.KindDocument, Markdown: md}},
			Root:  []string{"p"}, Files: map[string]*content.File{},
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		lim := DefaultLimits
		lim.MaxPages = 40
		src := Source{Title: "Fuzz", Tree: tree, Resolver: &render.Resolver{Tree: tree, Paths: content.GitPaths(tree)}}
		_, err := draw(ctx, src, Options{}, lim)
		if err != nil && quire.ErrorCode(err) != quire.CodeTooLarge && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("%v", err)
		}
	})
}
