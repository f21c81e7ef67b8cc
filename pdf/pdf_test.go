package pdf_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/pdf"
	"github.com/quiredocs/quire/render"
)

// sampleMarkdown holds what a page may: every block the PDF lays out.
const sampleMarkdown = "Quire keeps **bold**, *italic*, ~~struck~~ and `code` text, " +
	"a [link to the guide](guide/install.md#requirements), [an outside link](https://example.com/docs) " +
	"and a footnote.[^1]\n\n" +
	"## Lists\n\n- one\n- two\n  1. nested first\n  2. nested second\n- [x] done\n- [ ] to do\n\n" +
	"> A quotation that goes on long enough to be wrapped over more than one line of the page, as quotations do.\n\n" +
	"## Code\n\n```go\nfunc main() {\n\tfmt.Println(\"hello, world\") // a comment\n}\n```\n\n" +
	"{% code title=\"install.sh\" lineNumbers=\"true\" %}\n```sh\napt-get install quire\nquire serve\n```\n{% endcode %}\n\n" +
	"## Table\n\n| Name | Role | Notes |\n|:-----|:----:|------:|\n| Ada | admin | first |\n| Grace | edit | a long note that wraps inside its cell because it is longer than the column |\n\n" +
	"{% hint style=\"warning\" %}\nMind the **gap** between the train and the platform.\n{% endhint %}\n\n" +
	"{% tabs %}\n{% tab title=\"Linux\" %}\nRun `quire serve`.\n{% endtab %}\n{% tab title=\"macOS\" %}\nRun it with brew.\n{% endtab %}\n{% endtabs %}\n\n" +
	"<details>\n<summary>More details</summary>\n\nHidden until opened, printed open.\n\n</details>\n\n" +
	"{% if visitor.claims.plan == \"pro\" %}\nAdaptive content, printed for a reader of the space.\n{% endif %}\n\n" +
	"$$\nE = mc^2\n$$\n\nInline math $$a+b$$ here.\n\n" +
	"{% embed url=\"https://www.youtube.com/watch?v=x\" %}\n\n" +
	"![A red square](logo.png)\n\n" +
	"![Not an image Quire can print](diagram.svg)\n\n" +
	"---\n\n" +
	"Greek: Καλημέρα κόσμε. Cyrillic: Съешь же ещё этих мягких французских булок.\n\n" +
	"[^1]: The footnote's text.\n"

// sampleTree is a space of three pages, one with subpages, and two files.
func sampleTree(t testing.TB) (*content.Tree, map[string][]byte) {
	t.Helper()
	var img bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, 80, 60))
	for y := range 60 {
		for x := range 80 {
			m.Set(x, y, color.RGBA{0xd0, 0x20, 0x20, 0xff})
		}
	}
	if err := png.Encode(&img, m); err != nil {
		t.Fatal(err)
	}
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"/>`)
	blobs := map[string][]byte{content.Hash(img.String()): img.Bytes(), content.Hash(string(svg)): svg}
	tree := &content.Tree{
		Pages: map[string]*content.Page{
			"intro": {ID: "intro", Title: "Introduction", Slug: "intro", Kind: content.KindDocument, Description: "What Quire is",
				Markdown: sampleMarkdown},
			"guide":   {ID: "guide", Title: "Guide", Slug: "guide", Kind: content.KindGroup, Children: []string{"install", "usage"}},
			"install": {ID: "install", Title: "Installing", Slug: "install", Kind: content.KindDocument, Markdown: "## Requirements\n\nA computer. See [usage](usage.md).\n"},
			"usage":   {ID: "usage", Title: "Using Quire — Ελληνικά", Slug: "usage", Kind: content.KindDocument, Markdown: "Back to the [introduction](/intro).\n\nПривет, мир!\n"},
		},
		Root: []string{"intro", "guide"},
		Files: map[string]*content.File{
			"f1": {ID: "f1", Name: "logo.png", ContentType: "image/png", Size: int64(img.Len()), Width: 80, Height: 60, Blob: content.Hash(img.String())},
			"f2": {ID: "f2", Name: "diagram.svg", ContentType: "image/svg+xml", Size: int64(len(svg)), Blob: content.Hash(string(svg))},
		},
	}
	if err := tree.Validate(); err != nil {
		t.Fatal(err)
	}
	return tree, blobs
}

func source(tree *content.Tree, blobs map[string][]byte) pdf.Source {
	names := map[string]string{}
	for id, f := range tree.Files {
		names[id] = f.Name
	}
	return pdf.Source{
		Title: "Quire Handbook", Subtitle: "Change request #4: Better install docs", Revision: "r1",
		Date: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), Tree: tree,
		Resolver: &render.Resolver{Tree: tree, Paths: content.GitPaths(tree), Files: names},
		OpenFile: func(_ context.Context, f *content.File) (io.ReadCloser, error) {
			b, ok := blobs[f.Blob]
			if !ok {
				return nil, errors.New("no blob")
			}
			return io.NopCloser(bytes.NewReader(b)), nil
		},
		PageURL: func(id, anchor string) string { return "https://quire.example/s/s1/" + id },
	}
}

// writePDF prints and returns the PDF's file.
func writePDF(t *testing.T, src pdf.Source, opt pdf.Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := pdf.Write(t.Context(), &b, src, opt, pdf.DefaultLimits); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(b.Bytes(), []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", b.Bytes()[:min(20, b.Len())])
	}
	path := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("QUIRE_PDF_OUT"); dir != "" {
		// To look at: the PDF, and its first pages as PNG (pdftoppm, of
		// poppler-utils).
		name := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_"))
		_ = os.WriteFile(name+".pdf", b.Bytes(), 0o600)
		if err := exec.Command("pdftoppm", "-png", "-r", "70", "-l", "4", name+".pdf", name).Run(); err != nil {
			t.Logf("pdftoppm: %v", err)
		}
	}
	return path
}

// PDFText is the text of the PDF at path, page by page, as pdftotext reads
// it. Without pdftotext (poppler-utils) the test is skipped, except on CI,
// where it fails.
func PDFText(t *testing.T, path string) []string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pdftotext (poppler-utils) is needed on CI")
		}
		t.Skip("pdftotext (poppler-utils) not installed")
	}
	out, err := exec.Command("pdftotext", "-layout", "-enc", "UTF-8", path, "-").Output()
	if err != nil {
		t.Fatalf("pdftotext: %v", err)
	}
	pages := strings.Split(string(out), "\f")
	if n := len(pages); n > 0 && strings.TrimSpace(pages[n-1]) == "" {
		pages = pages[:n-1]
	}
	return pages
}

// wantInOrder checks that text holds each of wants, in order.
func wantInOrder(t *testing.T, text string, wants ...string) {
	t.Helper()
	at := 0
	for _, w := range wants {
		i := strings.Index(text[at:], w)
		if i < 0 {
			t.Errorf("%q not found after offset %d in:\n%s", w, at, text)
			return
		}
		at += i + len(w)
	}
}

func TestWholeSpace(t *testing.T) {
	tree, blobs := sampleTree(t)
	path := writePDF(t, source(tree, blobs), pdf.Options{})
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Links: URLs outside, and pages and headings inside (the contents'
	// four and four bookmarks, the links to the guide's heading, to usage,
	// back to the introduction, and the footnote's).
	for _, want := range []string{"/URI (https://example.com/docs)", "/URI (https://www.youtube.com/watch?v=x)"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("no link %s", want)
		}
	}
	if n := bytes.Count(raw, []byte("/Dest [")); n != 12 {
		t.Errorf("%d destinations inside the document, want 12", n)
	}
	if n := bytes.Count(raw, []byte("/Subtype /Image")); n != 1 {
		t.Errorf("%d images, want the PNG once", n)
	}
	pages := PDFText(t, path)
	if len(pages) < 5 {
		t.Fatalf("%d pages, want a title page, contents and at least 3 pages", len(pages))
	}
	wantInOrder(t, pages[0], "Quire Handbook", "Change request #4: Better install docs", "Revision r1", "1 March 2026")
	// The contents list every page in tree order with the page it starts on.
	toc := pages[1]
	wantInOrder(t, toc, "Contents", "Introduction", "Guide", "Installing", "Using Quire — Ελληνικά")
	all := strings.Join(pages, "\f")
	for _, title := range []string{"Introduction", "Guide", "Installing", "Using Quire — Ελληνικά"} {
		n := tocNumber(t, toc, title)
		if n < 3 || n > len(pages) || !strings.Contains(pages[n-1], title) {
			t.Errorf("contents say %q is on page %d, which does not hold it", title, n)
		}
	}
	wantInOrder(t, strings.Join(pages[2:], "\f"),
		"Introduction", "What Quire is", "bold", "italic", "struck", "code", "link to the guide",
		"Lists", "one", "nested first", "Code", "func main()", `fmt.Println("hello, world")`,
		"install.sh", "1", "apt-get install quire", "Table", "Name", "Role", "Grace", "edit",
		"Warning", "Mind the gap", "Linux", "Run quire serve.", "macOS", "More details", "printed open",
		"www.youtube.com", "[Image: Not an image Quire can print]",
		"Καλημέρα κόσμε", "Съешь же ещё этих мягких французских булок", "The footnote's text",
		"Guide", "Installing", "Requirements", "A computer.", "Using Quire — Ελληνικά", "Привет, мир!")
	if !strings.Contains(all, "Hidden until opened") {
		t.Error("the expandable's content is missing")
	}
	if !strings.Contains(all, "E = mc^2") || !strings.Contains(all, "a+b") || strings.Contains(all, "$$") {
		t.Error("math is missing, or printed with its dollars")
	}
	if !strings.Contains(all, "Adaptive content, printed") || strings.Contains(all, "{%") {
		t.Error("adaptive content is missing, or its tags are printed")
	}
}

// tocNumber is the page number the contents give title.
func tocNumber(t *testing.T, toc, title string) int {
	t.Helper()
	for _, line := range strings.Split(toc, "\n") {
		if strings.Contains(line, title) {
			fields := strings.Fields(line)
			var n int
			if _, err := fmt.Sscan(fields[len(fields)-1], &n); err == nil {
				return n
			}
		}
	}
	t.Errorf("no page number for %q in the contents:\n%s", title, toc)
	return 0
}

func TestOnlyOnePage(t *testing.T) {
	tree, blobs := sampleTree(t)
	path := writePDF(t, source(tree, blobs), pdf.Options{Page: "usage", Only: true})
	// The introduction is not printed: the link to it goes to the app.
	if raw, _ := os.ReadFile(path); !bytes.Contains(raw, []byte("/URI (https://quire.example/s/s1/intro)")) {
		t.Error("the link to a page not printed does not go to the app")
	}
	pages := PDFText(t, path)
	if len(pages) != 1 {
		t.Fatalf("%d pages, want 1", len(pages))
	}
	wantInOrder(t, pages[0], "Using Quire — Ελληνικά", "introduction", "Привет, мир!")
	for _, other := range []string{"Contents", "Installing", "Revision r1"} {
		if strings.Contains(pages[0], other) {
			t.Errorf("the page alone holds %q", other)
		}
	}
}

func TestPageAndSubpages(t *testing.T) {
	tree, blobs := sampleTree(t)
	pages := PDFText(t, writePDF(t, source(tree, blobs), pdf.Options{Page: "guide"}))
	all := strings.Join(pages, "\f")
	wantInOrder(t, all, "Quire Handbook", "Contents", "Guide", "Installing", "Using Quire", "Guide", "Requirements", "Привет")
	if strings.Contains(all, "Introduction") {
		t.Error("a page outside the subtree is printed")
	}
}

func TestEmptySpace(t *testing.T) {
	tree := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
	pages := PDFText(t, writePDF(t, source(tree, nil), pdf.Options{}))
	if len(pages) != 2 || !strings.Contains(pages[0], "Quire Handbook") || !strings.Contains(pages[1], "Contents") {
		t.Errorf("an empty space: %d pages:\n%s", len(pages), strings.Join(pages, "\f"))
	}
}

func TestUnknownPage(t *testing.T) {
	tree, blobs := sampleTree(t)
	err := pdf.Write(t.Context(), io.Discard, source(tree, blobs), pdf.Options{Page: "nope"}, pdf.DefaultLimits)
	if quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("err = %v, want not found", err)
	}
}

func TestLimits(t *testing.T) {
	tree, blobs := sampleTree(t)
	lim := pdf.DefaultLimits
	lim.MaxPages = 3
	err := pdf.Write(t.Context(), io.Discard, source(tree, blobs), pdf.Options{}, lim)
	if quire.ErrorCode(err) != quire.CodeTooLarge {
		t.Errorf("3 pages at most: err = %v, want too large", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := pdf.Write(ctx, io.Discard, source(tree, blobs), pdf.Options{}, pdf.DefaultLimits); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

// TestBounds: a PDF whose tables hold more cells than it may, on one page
// or in all, or that would draw more than it may, is refused, naming the
// page; cells are counted before anything is laid out.
func TestBounds(t *testing.T) {
	table := func(cols, rows int) string {
		return "|" + strings.Repeat(" h |", cols) + "\n|" + strings.Repeat("---|", cols) + "\n" +
			strings.Repeat("|"+strings.Repeat(" c |", cols)+"\n", rows-1)
	}
	tree := func(bodies ...string) *content.Tree {
		t := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
		for i, md := range bodies {
			id := fmt.Sprintf("p%d", i)
			t.Pages[id] = &content.Page{ID: id, Title: fmt.Sprintf("Page %d", i), Slug: id, Kind: content.KindDocument, Markdown: md}
			t.Root = append(t.Root, id)
		}
		return t
	}
	for _, c := range []struct {
		name  string
		tree  *content.Tree
		edit  func(*pdf.Limits)
		wants []string // parts of the error; none: printed
	}{
		{"cells of a page", tree("Fine.\n", table(3, 3)), func(l *pdf.Limits) { l.MaxPageCells = 8 },
			[]string{`page "Page 1"`, "9 cells", "at most 8"}},
		{"cells at the page bound", tree(table(3, 3)), func(l *pdf.Limits) { l.MaxPageCells = 9 }, nil},
		{"cells in all", tree(table(2, 3), table(2, 3), table(2, 3)), func(l *pdf.Limits) { l.MaxCells = 15 },
			[]string{`page "Page 2"`, "18 cells", "at most 15"}},
		{"drawn", tree("Fine.\n", strings.Repeat("word ", 2000)+"\n"), func(l *pdf.Limits) { l.MaxDrawn = 100 },
			[]string{`page "Page 1"`, "more than 100"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lim := pdf.DefaultLimits
			c.edit(&lim)
			err := pdf.Write(t.Context(), io.Discard, source(c.tree, nil), pdf.Options{}, lim)
			if len(c.wants) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if quire.ErrorCode(err) != quire.CodeTooLarge {
				t.Fatalf("err = %v, want too large", err)
			}
			for _, w := range c.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q does not say %q", err, w)
				}
			}
		})
	}
}

// TestImageBounds: images past the bounds of bytes or pixels, in all,
// print as their alt text: they are never decoded.
func TestImageBounds(t *testing.T) {
	tree, blobs := sampleTree(t)
	for name, edit := range map[string]func(*pdf.Limits){
		"within": func(*pdf.Limits) {},
		"bytes":  func(l *pdf.Limits) { l.MaxImageBytes = 10 },
		"pixels": func(l *pdf.Limits) { l.MaxPixels = 80*60 - 1 },
		"of one": func(l *pdf.Limits) { l.MaxImagePixels = 80*60 - 1 },
	} {
		t.Run(name, func(t *testing.T) {
			lim := pdf.DefaultLimits
			edit(&lim)
			var b bytes.Buffer
			if err := pdf.Write(t.Context(), &b, source(tree, blobs), pdf.Options{}, lim); err != nil {
				t.Fatal(err)
			}
			want := 0
			if name == "within" {
				want = 1
			}
			if n := bytes.Count(b.Bytes(), []byte("/Subtype /Image")); n != want {
				t.Errorf("%d images, want %d", n, want)
			}
		})
	}
}
