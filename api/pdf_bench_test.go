package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/quiredocs/quire/content"
)

// pdfBenchSpace is a space of n top-level pages whose markdown body(i)
// makes.
func pdfBenchSpace(b *testing.B, e *env, n int, body func(i int) string) string {
	b.Helper()
	spaceID := e.crSpace(b)
	var c crOut
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
	_, err := e.db.EditChangeRequest(b.Context(), spaceID, c.ID, e.admin.id, func(now time.Time, t *content.Tree) (*content.Tree, error) {
		for i := range n {
			id := fmt.Sprintf("p%04d", i)
			t.Pages[id] = &content.Page{ID: id, Title: fmt.Sprintf("Page %d", i), Slug: id, Kind: content.KindDocument, Markdown: body(i),
				CreatedAt: now.UnixMicro(), UpdatedAt: now.UnixMicro()}
			t.Root = append(t.Root, id)
		}
		return t, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests/"+c.ID+"/merge", nil).want(b, http.StatusOK)
	return spaceID
}

// benchTable is a table of cols × rows cells (the header counted) of some
// 45 bytes each: at 100 × 200 a page's markdown is just under its bound.
func benchTable(cols, rows int) string {
	var b strings.Builder
	b.WriteString("|" + strings.Repeat(" head |", cols) + "\n|" + strings.Repeat("---|", cols) + "\n")
	for r := range rows - 1 {
		b.WriteString("|")
		for c := range cols {
			fmt.Fprintf(&b, " r%dc%d holds some words of text to wrap |", r, c)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// shortPage is some 150 words: a PDF page.
func shortPage(i int) string {
	return fmt.Sprintf("## Page %d\n\n", i) + strings.Repeat("Quire stores every revision of a space as a tree of pages and files. ", 10) +
		"\n\n- one\n- two\n- three\n"
}

// rss is the resident memory of the process, in bytes.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// peakAboveIdle runs fn and reports the most resident memory and heap in
// use while it ran, above those of the idle server before (sampled every
// 2 ms, after returning what is free to the system).
func peakAboveIdle(fn func()) (rssMiB, heapMiB float64) {
	debug.FreeOSMemory()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	idleRSS, idleHeap := rss(), m.HeapInuse
	var peakRSS, peakHeap uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peakRSS, peakHeap = max(peakRSS, rss()), max(peakHeap, m.HeapInuse)
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
	return float64(peakRSS-min(peakRSS, idleRSS)) / (1 << 20), float64(peakHeap-min(peakHeap, idleHeap)) / (1 << 20)
}

// BenchmarkPDFExportMemory follows PDF links through the real server (the
// export job, blob storage, the answer) and reports the peak resident
// memory and heap above the idle server: the space of the security review
// (20 pages of a 100 × 200 table, refused: 413), the largest tables that
// print, a space of 3,000 pages, and two exports at once. The first
// iteration prints; later ones serve the PDF kept. The figures in docs/writing/pdf-export.md:
//
//	go test ./api -run XXX -bench BenchmarkPDFExportMemory -benchtime 1x
func BenchmarkPDFExportMemory(b *testing.B) {
	review := benchTable(100, 200)
	bounds := benchTable(10, 500)
	for _, c := range []struct {
		name   string
		pages  int
		body   func(int) string
		n      int // exports at once, each of a space of its own
		status int
	}{
		{"review-20x100x200", 20, func(int) string { return review }, 1, http.StatusRequestEntityTooLarge},
		{"tables-4x10x500", 4, func(int) string { return bounds }, 1, http.StatusOK},
		{"pages-3000", 3000, shortPage, 1, http.StatusOK},
		{"two-tables-at-once", 4, func(int) string { return bounds }, 2, http.StatusOK},
		{"two-3000-at-once", 3000, shortPage, 2, http.StatusOK},
	} {
		b.Run(c.name, func(b *testing.B) {
			e, _ := newBenchEnv(b, 1, 0)
			links := make([]string, c.n)
			for i := range links {
				links[i] = pdfLink(b, e, e.admin.token, "/v1/spaces/"+pdfBenchSpace(b, e, c.pages, c.body)+"/pdf")
			}
			for b.Loop() {
				answers := make([]*response, c.n)
				start := time.Now()
				rssMiB, heapMiB := peakAboveIdle(func() {
					var wg sync.WaitGroup
					for i, link := range links {
						wg.Go(func() { answers[i] = followPDF(b, e, link) })
					}
					wg.Wait()
				})
				b.ReportMetric(time.Since(start).Seconds(), "s")
				b.ReportMetric(rssMiB, "rss-MiB")
				b.ReportMetric(heapMiB, "heap-MiB")
				b.ReportMetric(float64(len(answers[0].Body))/(1<<20), "pdf-MiB")
				b.ReportMetric(float64(bytes.Count(answers[0].Body, []byte("/Type /Page\n"))), "pdf-pages")
				for _, a := range answers {
					if a.Status != c.status {
						b.Fatalf("status %d, want %d: %.300s", a.Status, c.status, a.Body)
					}
				}
				if c.status != http.StatusOK {
					b.Logf("%s: %s", c.name, answers[0].Body)
				}
			}
		})
	}
}
