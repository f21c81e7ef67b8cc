package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// nestedList is a list n levels deep, one item a level.
func nestedList(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat("  ", i) + "- x\n")
	}
	return b.String()
}

// table is a table of cols columns and rows rows; with short, each row
// gives one cell and the table pads the rest.
func table(cols, rows int, short bool) string {
	row := strings.Repeat("|1", cols) + "|\n"
	if short {
		row = "1\n"
	}
	return strings.Repeat("|h", cols) + "|\n" + strings.Repeat("|-", cols) + "|\n" + strings.Repeat(row, rows)
}

// boundCases are markdown within and past the bounds; over is the start of
// CheckDocument's message, "" when it accepts.
var boundCases = []struct {
	name, md, over string
}{
	{"prose", "# Title\n\nSome *text* with a [link](https://a.test).\n\n> quoted\n", ""},
	{"quotes at the limit", strings.Repeat(">", MaxNesting) + " x\n", ""},
	{"quotes past the limit", strings.Repeat(">", MaxNesting+1) + " x\n", "blockquotes and lists"},
	{"6,000 quotes (finding 6)", strings.Repeat(">", 6000) + " x\n", "blockquotes and lists"},
	{"512 Ki quotes", strings.Repeat(">", 512<<10) + " x\n", "blockquotes and lists"},
	{"lists at the limit", nestedList(MaxNesting), ""},
	{"lists past the limit", nestedList(MaxNesting + 1), "blockquotes and lists"},
	{"lists on one line", strings.Repeat("- ", 3000) + "x\n", "blockquotes and lists"},
	{"quotes and lists", strings.Repeat("> - ", MaxNesting/2) + "> x\n", "blockquotes and lists"},
	{"table at the limit", table(4, MaxTableCells/4-1, false), ""},
	{"table past the limit", table(4, MaxTableCells/4, false), "tables may hold"},
	{"808 KB table (finding 3)", table808, "tables may hold"},
	{"padded table", table(2000, 5000, true), "tables may hold"},
	{"tables past the limit in all", strings.Repeat(table(10, 1000, false)+"\n", 3), "tables may hold"},
	{"code lines at the limit", "```\n" + strings.Repeat("\n", MaxDocumentNodes-10) + "```\n", ""},
	{"code lines past the limit", "```\n" + strings.Repeat("\n", MaxDocumentNodes) + "```\n", "may hold at most"},
	{"list items past the limit", strings.Repeat("-\n", MaxDocumentNodes), "may hold at most"},
	{"emphasis past the limit", strings.Repeat("*a ", 100000) + strings.Repeat("b*", 100000) + "\n", "may hold at most"},
}

func TestCheckDocument(t *testing.T) {
	for _, tc := range boundCases {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckDocument(tc.md)
			if tc.over == "" {
				if err != nil {
					t.Fatalf("CheckDocument: %v, want nil", err)
				}
				return
			}
			if quire.ErrorCode(err) != quire.CodeInvalid || !strings.HasPrefix(quire.ErrorMessage(err), tc.over) {
				t.Fatalf("CheckDocument: %v, want invalid: %s…", err, tc.over)
			}
		})
	}
}

// TestDocumentJSONBounds converts what CheckDocument refuses, as stored
// before it did: the answer is a document that encodes, even inside another
// answer (which encoding/json checks to 10,000 levels), of at most some MiB,
// or ErrDocumentTooLarge.
func TestDocumentJSONBounds(t *testing.T) {
	for _, tc := range boundCases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := DocumentJSON(tc.md, nil)
			if errors.Is(err, ErrDocumentTooLarge) {
				if !strings.HasPrefix(tc.over, "may hold") {
					t.Fatalf("DocumentJSON: %v, want a document", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := json.Marshal(struct{ D json.RawMessage }{doc}); err != nil {
				t.Fatalf("document does not encode in an answer: %v", err)
			}
			if len(doc) > maxDocumentJSON {
				t.Errorf("document of %d bytes, want at most %d", len(doc), maxDocumentJSON)
			}
		})
	}
}

// TestDocumentPastBounds: what is past the bounds is text.
func TestDocumentPastBounds(t *testing.T) {
	quotes := strings.Repeat("> ", MaxNesting+2) + "x\n"
	want := strings.Repeat("blockquote[", MaxNesting) + `paragraph["> > x"]` + strings.Repeat("]", MaxNesting)
	if got := outline(Document(quotes, nil)["nodes"].([]any)); got != want {
		t.Errorf("quotes: got  %s\nwant %s", got, want)
	}
	for _, md := range []string{table(4, MaxTableCells/4, false), table(2000, 5000, true)} {
		got := outline(Document(md, nil)["nodes"].([]any))
		if !strings.HasPrefix(got, `paragraph["|h|h|h|h|`) || strings.Contains(got, "] ") {
			t.Errorf("table: got %.100s…, want one paragraph", got)
		}
	}
}

// maxDocumentJSON is the most JSON a document may be: what markdown within
// the bounds makes at worst (BenchmarkDocumentBounds), with room to spare.
const maxDocumentJSON = 24 << 20

var _ = fmt.Sprint
