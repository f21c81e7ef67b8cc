package render

import (
	"encoding/json"
	"strings"
	"testing"
)

// table808 is the page of security finding 3: an 808 KB markdown table of
// 80,800 rows of four one-character cells.
var table808 = "|a|b|c|d|\n|-|-|-|-|\n" + strings.Repeat("|1|2|3|4|\n", 80800)

// BenchmarkDocumentTable measures the document form of table808 as the
// read endpoints build it: converted, then encoded. Past MaxTableCells,
// the table is a paragraph of its text.
func BenchmarkDocumentTable(b *testing.B) {
	benchmarkDocument(b, table808)
}

// BenchmarkDocumentBounds measures the largest documents known of markdown
// within the bounds: JSON of up to some 200 bytes a node.
func BenchmarkDocumentBounds(b *testing.B) {
	for _, bc := range []struct{ name, md string }{
		{"empty list items", strings.Repeat("-\n", MaxDocumentNodes-3)},
		{"empty quotes", strings.Repeat(">\n\n", MaxDocumentNodes/2-2)},
		{"links", strings.Repeat("[](a)", MaxDocumentNodes-3)},
		{"code lines", "```\n" + strings.Repeat("\n", MaxDocumentNodes-10) + "```\n"},
		{"empty table cells", table(MaxTableCells/5, 4, true)},
		{"1 MiB of <", strings.Repeat("<", 1<<20)},
	} {
		if err := CheckDocument(bc.md); err != nil {
			b.Fatalf("%s: %v", bc.name, err)
		}
		b.Run(bc.name, func(b *testing.B) { benchmarkDocument(b, bc.md) })
	}
}

func benchmarkDocument(b *testing.B, md string) {
	b.ReportAllocs()
	var size int
	for b.Loop() {
		doc, err := DocumentJSON(md, nil)
		if err != nil {
			b.Fatal(err)
		}
		// As an answer holds it, which encoding/json checks again.
		out, err := json.Marshal(struct{ Document json.RawMessage }{doc})
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size), "json-bytes")
}
