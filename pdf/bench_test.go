package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/pdf"
)

// benchPage is a page of documentation as they come: some 700 words of
// prose, headings, a list, code, a table and a hint.
func benchPage(i int) string {
	var b strings.Builder
	para := "Quire stores every revision of a space as a tree of pages and files, so reading an old revision " +
		"costs no more than reading the current one. Links between pages are resolved against the revision read, " +
		"and a [link to the next page](/pages/p%03d) goes there in the PDF too. "
	for s := range 4 {
		fmt.Fprintf(&b, "## Section %d of page %d\n\n", s+1, i)
		for range 3 {
			b.WriteString(fmt.Sprintf(para, (i+1)%100) + "*Emphasis*, **strong** and `code` keep their style.\n\n")
		}
		b.WriteString("- the first item of a list\n- the second, with `code`\n- the third\n\n")
		if s == 1 {
			b.WriteString("```go\nfunc main() {\n\tfor i := range 10 {\n\t\tfmt.Println(i) // count\n\t}\n}\n```\n\n")
			b.WriteString("| Option | Default | Meaning |\n|---|---|---|\n| addr | :8080 | where to listen |\n| data | ./data | where to keep files |\n\n")
			b.WriteString("{% hint style=\"info\" %}\nA hint, shaded, with its label.\n{% endhint %}\n\n")
		}
	}
	return b.String()
}

// benchTree is a space of n pages: n/10 top-level pages of 9 subpages each.
func benchTree(n int) *content.Tree {
	t := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
	for i := range n {
		id := fmt.Sprintf("p%03d", i)
		t.Pages[id] = &content.Page{ID: id, Title: fmt.Sprintf("Page %d", i), Slug: id, Kind: content.KindDocument, Markdown: benchPage(i)}
		if i%10 == 0 {
			t.Root = append(t.Root, id)
		} else {
			parent := fmt.Sprintf("p%03d", i/10*10)
			t.Pages[parent].Children = append(t.Pages[parent].Children, id)
		}
	}
	return t
}

// BenchmarkPDF100 prints a space of 100 pages (some 250 PDF pages); the
// goal is at most 3 s.
func BenchmarkPDF100(b *testing.B) {
	tree := benchTree(100)
	src := source(tree, nil)
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		if err := pdf.Write(b.Context(), &out, src, pdf.Options{}, pdf.DefaultLimits); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.Len())/(1<<20), "MiB")
}

// printPage prints md as the one page of a space, within 40 PDF pages and
// 10 s: it must end with a PDF or one of the limits.
func printPage(t testing.TB, md string) {
	t.Helper()
	tree := &content.Tree{
		Pages: map[string]*content.Page{"p": {ID: "p", Title: "Page", Slug: "p", Kind: content.KindDocument, Markdown: md}},
		Root:  []string{"p"}, Files: map[string]*content.File{},
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	lim := pdf.DefaultLimits
	lim.MaxPages = 40
	err := pdf.Write(ctx, io.Discard, source(tree, nil), pdf.Options{}, lim)
	if err != nil && quire.ErrorCode(err) != quire.CodeTooLarge && !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
}

// TestPathologicalPages: pages at the bounds of what markdown may hold
// print, or stop at a limit, without costing the square of their length
// (a word or a line of code a page long is cut by measuring each
// character once).
func TestPathologicalPages(t *testing.T) {
	for name, md := range map[string]string{
		"long code line": "```\n" + strings.Repeat("x", 200_000) + "\n```\n",
		"long word":      strings.Repeat("語", 50_000) + "\n",
		"wide table":     "|" + strings.Repeat(" a b c |", 200) + "\n|" + strings.Repeat("---|", 200) + "\n|" + strings.Repeat(" word word |", 200) + "\n",
		"deep lists": func() string {
			var b strings.Builder
			for i := range 100 {
				b.WriteString(strings.Repeat("  ", i) + "- item " + strings.Repeat("x ", 50) + "\n")
			}
			return b.String()
		}(),
		"deep hints":  strings.Repeat("{% hint %}\n", 32) + strings.Repeat("word ", 500) + "\n" + strings.Repeat("{% endhint %}\n", 32),
		"deep quotes": strings.Repeat(">", 100) + " " + strings.Repeat("word ", 2000) + "\n",
		"emphasis":    strings.Repeat("*a*b", 5000) + "\n",
	} {
		t.Run(name, func(t *testing.T) { printPage(t, md) })
	}
}
