package pdf

import (
	east "github.com/yuin/goldmark/extension/ast"
)

// cellPadding is the space around a table cell's text.
const cellPadding = 4.0

// tableCell is a cell's text and alignment.
type tableCell struct {
	runs  []run
	align east.Alignment
}

// table places a table: rows of wrapped cells under a shaded header, with
// a rule under each row. A row taller than what is left of a page goes on
// to the next, line by line, and the header is repeated on each sheet.
func (w *writer) table(n *east.Table) {
	var rows [][]tableCell
	header := false
	cols := 0
	for r := n.FirstChild(); r != nil; r = r.NextSibling() {
		st := body()
		st.size = smallSize + 0.5
		if _, ok := r.(*east.TableHeader); ok {
			st.bold = true
			header = len(rows) == 0
		}
		var row []tableCell
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			align := east.AlignNone
			if tc, ok := c.(*east.TableCell); ok {
				align = tc.Alignment
			}
			row = append(row, tableCell{runs: w.inlines(c, st), align: align})
		}
		cols = max(cols, len(row))
		rows = append(rows, row)
	}
	if cols == 0 {
		return
	}
	widths := w.columnWidths(rows, cols)
	w.space(4)
	var head [][][]frag
	for i, row := range rows {
		lines := make([][][]frag, cols)
		for j := range cols {
			if j < len(row) {
				lines[j] = w.wrap(row[j].runs, widths[j]-2*cellPadding)
			}
		}
		if i == 0 && header {
			head = lines
		}
		w.tableRow(rows, i, lines, widths, head, i == 0 && header)
		if w.err != nil {
			return
		}
	}
	w.space(10)
}

// tableRow places row i, whose cells are wrapped into lines.
func (w *writer) tableRow(rows [][]tableCell, i int, lines [][][]frag, widths []float64, head [][][]frag, isHeader bool) {
	n := 0
	for _, c := range lines {
		n = max(n, len(c))
	}
	lh := lineHeight(smallSize + 0.5)
	rowH := float64(n)*lh + 2*cellPadding
	sheets := len(w.sheets)
	w.ensure(min(rowH, 3*lh+2*cellPadding))
	if head != nil && !isHeader && len(w.sheets) != sheets {
		w.tableRow(rows, 0, head, widths, nil, true) // the header again, atop the new sheet
	}
	if isHeader {
		w.ensure(rowH)
		w.add(op{kind: opRect, x: w.left, y: w.y, w: sum(widths), h: rowH, color: codeFill})
	}
	w.y += cellPadding
	for k := range n {
		w.ensure(lh)
		x := w.left
		for j, c := range lines {
			if k < len(c) {
				x0 := x + cellPadding
				room := widths[j] - 2*cellPadding
				if j < len(rows[i]) {
					switch rows[i][j].align {
					case east.AlignRight:
						x0 += room - lineWidth(c[k])
					case east.AlignCenter:
						x0 += (room - lineWidth(c[k])) / 2
					}
				}
				w.drawLine(c[k], x0, w.y, lh)
			}
			x += widths[j]
		}
		w.y += lh
	}
	w.y += cellPadding
	colour := lightGrey
	if isHeader {
		colour = grey
	}
	w.add(op{kind: opLine, x: w.left, y: w.y, w: sum(widths), color: colour})
}

// columnWidths shares the text's width among columns: a column narrower
// than an even share gets what it needs, the others share the rest by
// what they would take unwrapped.
func (w *writer) columnWidths(rows [][]tableCell, cols int) []float64 {
	natural := make([]float64, cols)
	for _, row := range rows {
		for j, c := range row {
			width := 0.0
			for _, r := range c.runs {
				width += w.m.width(r.st.face(), r.text, r.st.size)
			}
			natural[j] = max(natural[j], width+2*cellPadding+1)
		}
	}
	total := w.width()
	out := make([]float64, cols)
	if sum(natural) <= total {
		copy(out, natural)
		return out
	}
	share := total / float64(cols)
	left, wide := total, 0.0
	for j, nw := range natural {
		if nw <= share {
			out[j] = nw
			left -= nw
		} else {
			wide += nw
		}
	}
	for j, nw := range natural {
		if nw > share {
			out[j] = left * nw / wide
		}
	}
	return out
}

func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}
