package pdf

import (
	"strconv"
	"strings"
)

// tocNumberWidth is the column of page numbers in the table of contents.
const tocNumberWidth = 36.0

// frontMatter lays out the title page and the table of contents, and
// returns their sheets. The contents list each page with the number of the
// PDF page it starts on: starts has the content sheet of each page's
// bookmarked anchor.
func (w *writer) frontMatter(entries []entry, starts map[string]int) []*sheet {
	body := w.layout
	defer func() { w.layout = body }()

	w.layout = newLayout(w.ctx, w.m, w.lim)
	w.titlePage()
	front := w.sheets

	w.layout = newLayout(w.ctx, w.m, w.lim)
	w.newSheet()
	w.paragraph([]run{{"Contents", style{bold: true, size: titleSize, color: black}}}, false)
	w.space(12)
	type number struct {
		sheet, op int
		anchor    string
	}
	var numbers []number
	for _, e := range entries {
		depth := min(e.depth, 6)
		st := style{size: bodySize, color: black}
		lh := lineHeight(bodySize) + 2
		if depth == 0 {
			st.bold = true
			lh += 2
		}
		w.ensure(lh)
		x := w.left + float64(depth)*14
		room := w.right - tocNumberWidth - 8 - x
		title := truncate(w, cleanText(titleOf(e.page.Title)), st, room)
		line := w.wrap([]run{{title, st}}, room+1)
		w.drawLine(line[0], x, w.y, lh)
		tw := lineWidth(line[0])
		base := w.y + (lh-st.size)/2 + st.size*0.8
		if lead := x + tw + 6; lead < w.right-tocNumberWidth {
			w.add(op{kind: opLine, x: lead, y: base, w: w.right - tocNumberWidth - lead, color: lightGrey, dotted: true})
		}
		anchor := pageAnchor(e.page.ID)
		numbers = append(numbers, number{len(w.sheets) - 1, len(w.cur().ops), anchor})
		w.add(op{kind: opText, x: w.right, y: base, font: st.face(), size: st.size, color: black})
		w.add(op{kind: opLink, x: x, y: w.y, w: w.right - x, h: lh, anchor: anchor})
		w.y += lh
		if w.err != nil {
			return nil
		}
	}
	// The numbers, now that the contents' length is known; right-aligned.
	first := len(front) + len(w.sheets) + 1
	for _, n := range numbers {
		o := &w.sheets[n.sheet].ops[n.op]
		o.text = strconv.Itoa(first + starts[n.anchor])
		o.x -= w.m.width(o.font, o.text, o.size)
	}
	return append(front, w.sheets...)
}

// titlePage lays out the title page: the title, the subtitle, the
// revision and its date.
func (w *writer) titlePage() {
	w.newSheet()
	w.y = pageHeight * 0.3
	w.paragraph([]run{{cleanText(titleOf(w.src.Title)), style{bold: true, size: 30, color: black}}}, true)
	if w.src.Subtitle != "" {
		w.space(10)
		w.paragraph([]run{{cleanText(w.src.Subtitle), style{size: 15, color: grey}}}, true)
	}
	w.space(24)
	var meta []string
	if w.src.Revision != "" {
		meta = append(meta, "Revision "+w.src.Revision)
	}
	if !w.src.Date.IsZero() {
		meta = append(meta, w.src.Date.UTC().Format("2 January 2006"))
	}
	if len(meta) > 0 {
		w.paragraph([]run{{cleanText(strings.Join(meta, " · ")), style{size: smallSize, color: grey}}}, true)
	}
}

// titleOf is a title, or "Untitled" for none.
func titleOf(t string) string {
	if strings.TrimSpace(t) == "" {
		return "Untitled"
	}
	return t
}

// truncate cuts text to fit room in st, ending it with "…" when cut.
func truncate(w *writer, text string, st style, room float64) string {
	f := st.face()
	if w.m.width(f, text, st.size) <= room {
		return text
	}
	head, _ := w.fit(text, f, st.size, room-w.m.width(f, "…", st.size))
	return strings.TrimRight(head, " ") + "…"
}
