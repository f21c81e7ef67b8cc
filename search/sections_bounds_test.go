package search

import (
	"runtime"
	"strings"
	"testing"

	"github.com/quiredocs/quire/content"
)

// TestPageOfBounded: pages stored before the bounds on documents were
// checked at write time are still indexed, in memory bounded by their
// length: a table header of 2,000 columns over 5,000 short rows (18 KB)
// made a plain GFM parser pad 10 million cells, some 1.7 GB.
func TestPageOfBounded(t *testing.T) {
	wide := "|" + strings.Repeat("h|", 2000) + "\n|" + strings.Repeat("-|", 2000) + "\n" + strings.Repeat("x\n", 5000) + "\nreplication factor\n"
	deep := strings.Repeat(">", 6000) + " deep words\n"
	for name, md := range map[string]string{"wide table": wide, "deep quotes": deep} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		page := PageOf(&content.Page{ID: "p", Title: "T", Markdown: md})
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
			t.Errorf("%s: indexing %d bytes allocated %d MB", name, len(md), alloc>>20)
		}
		text := ""
		for _, s := range page.Sections {
			text += s.Body
		}
		if want := strings.Fields(md[len(md)-20:])[1]; !strings.Contains(text, want) {
			t.Errorf("%s: the page's text %q… lost %q", name, text[:min(len(text), 80)], want)
		}
	}
}
