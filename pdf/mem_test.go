package pdf_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/pdf"
)

// tableTree is a space of n pages, each one table of cols × rows cells (the header counted) of
// some 45 bytes: a page's markdown is just under its bound of 1 MiB.
func tableTree(n, cols, rows int) *content.Tree {
	var b strings.Builder
	b.WriteString("|")
	for c := range cols {
		fmt.Fprintf(&b, " h%d |", c)
	}
	b.WriteString("\n|" + strings.Repeat("---|", cols) + "\n")
	for r := range rows - 1 { // the header is a row
		b.WriteString("|")
		for c := range cols {
			fmt.Fprintf(&b, " r%dc%d holds some words of text to wrap |", r, c)
		}
		b.WriteString("\n")
	}
	t := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
	for i := range n {
		id := fmt.Sprintf("t%03d", i)
		t.Pages[id] = &content.Page{ID: id, Title: fmt.Sprintf("Table %d", i), Slug: id, Kind: content.KindDocument, Markdown: b.String()}
		t.Root = append(t.Root, id)
	}
	return t
}

// shortTree is a space of n pages of some 150 words each: a PDF page each.
func shortTree(n int) *content.Tree {
	t := benchTree(n)
	for id, p := range t.Pages {
		p.Markdown = benchPage(0)[:900] + "\n\n- one\n- two\n"
		t.Pages[id] = p
	}
	return t
}

// imageTree is a page of four translucent PNG images of 3840 × 2160
// pixels, about the most one may have, 33 million in all: gopdf decodes
// each to split its alpha channel.
func imageTree() (*content.Tree, map[string][]byte) {
	t := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
	blobs := map[string][]byte{}
	var md strings.Builder
	for i := range 4 {
		m := image.NewNRGBA(image.Rect(0, 0, 3840, 2160))
		for y := range 2160 {
			for x := range 3840 {
				m.SetNRGBA(x, y, color.NRGBA{uint8(x + i), uint8(y), uint8(i * 60), uint8(128 + x%64)})
			}
		}
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			panic(err)
		}
		id := fmt.Sprintf("f%d", i)
		t.Files[id] = &content.File{ID: id, Name: id + ".png", Blob: id, Size: int64(b.Len()), ContentType: "image/png"}
		blobs[id] = b.Bytes()
		fmt.Fprintf(&md, "![image %d](%s.png)\n\n", i, id)
	}
	t.Pages["p"] = &content.Page{ID: "p", Title: "Images", Slug: "p", Kind: content.KindDocument, Markdown: md.String()}
	t.Root = []string{"p"}
	return t, blobs
}

// peakMemory runs fn and reports the most heap in use while it ran, and
// the memory the process took from the system meanwhile, above what was
// in use before (sampled every millisecond).
func peakMemory(fn func()) (heap, sys uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	baseHeap, baseSys := m.HeapInuse, m.Sys-m.HeapReleased
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			heap, sys = max(heap, m.HeapInuse), max(sys, m.Sys-m.HeapReleased)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	fn()
	close(done)
	wg.Wait()
	return heap - min(heap, baseHeap), sys - min(sys, baseSys)
}

// BenchmarkPDFMemory prints the spaces of the figures in docs/writing/pdf-export.md and reports
// the peak heap and system memory above idle (MiB), and the PDF's size:
// the space the security review printed (20 pages of a 100 × 200 table,
// refused), the largest tables that print (20,000 cells), a space of 3,000
// pages, and two of the largest at once.
//
//	go test ./pdf -run XXX -bench BenchmarkPDFMemory -benchtime 1x
func BenchmarkPDFMemory(b *testing.B) {
	images, blobs := imageTree()
	for _, c := range []struct {
		name  string
		tree  *content.Tree
		n     int // exports at once
		blobs map[string][]byte
	}{
		{"tables-20x100x200", tableTree(20, 100, 200), 1, nil},
		{"tables-4x10x500", tableTree(4, 10, 500), 1, nil},
		{"pages-3000", shortTree(3000), 1, nil},
		{"two-at-once", tableTree(4, 10, 500), 2, nil},
		{"images-4x8MP", images, 1, blobs},
	} {
		b.Run(c.name, func(b *testing.B) {
			src := source(c.tree, c.blobs)
			for b.Loop() {
				errs := make([]error, c.n)
				cw := &countWriter{}
				heap, sys := peakMemory(func() {
					var wg sync.WaitGroup
					for i := range c.n {
						wg.Go(func() {
							w := &countWriter{}
							errs[i] = pdf.Write(b.Context(), w, src, pdf.Options{}, pdf.DefaultLimits)
							if i == 0 {
								cw = w
							}
						})
					}
					wg.Wait()
				})
				b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
				b.ReportMetric(float64(sys)/(1<<20), "sys-MiB")
				b.ReportMetric(float64(cw.n)/(1<<20), "pdf-MiB")
				for _, err := range errs {
					if err != nil {
						b.Logf("%s: %v", c.name, err)
					}
				}
			}
		})
	}
}

type countWriter struct{ n int64 }

func (c *countWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)
