package render

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// blocksMD appends the chunks of nodes, blocks where place at is, to out.
func blocksMD(out *[]chunk, nodes []any, path *nodePath, at place) error {
	for i, n := range nodes {
		if err := blockMD(out, n, path.item(i), at); err != nil {
			return err
		}
	}
	return nil
}

// blockMD appends the chunks of block n to out: none, one, or for a
// container of blocks those of its content.
func blockMD(out *[]chunk, n any, path *nodePath, at place) error {
	m, obj, err := object(n, path)
	if err != nil {
		return err
	}
	kids, err := nodesOf(m, path)
	if err != nil {
		return err
	}
	switch obj {
	case "document", "fragment":
		return blocksMD(out, kids, path.field("nodes"), at)
	case "mark":
		return fmt.Errorf("%s: a mark is not a block", path)
	case "text", "inline", "leaf": // inline content where a block belongs
		var spans []span
		if err := spanMD(&spans, m, path); err != nil {
			return err
		}
		*out = append(*out, textMD(spans, at))
		return nil
	}
	typ, _ := m["type"].(string)
	data, _ := m["data"].(map[string]any)
	switch typ {
	case "paragraph":
		var spans []span
		if err := spansMD(&spans, kids, path.field("nodes")); err != nil {
			return err
		}
		*out = append(*out, paragraphMD(spans, at))
	case "heading-1", "heading-2", "heading-3", "heading-4", "heading-5", "heading-6":
		var spans []span
		if err := spansMD(&spans, kids, path.field("nodes")); err != nil {
			return err
		}
		hashes := strings.Repeat("#", int(typ[len(typ)-1]-'0'))
		if s := inlineMD(spans, ctxHeading); s != "" {
			hashes += " " + s
		}
		anchor, err := headingAnchorMD(m, path)
		if err != nil {
			return err
		}
		*out = append(*out, chunk{lines: []string{hashes + anchor}})
	case "divider":
		*out = append(*out, chunk{lines: []string{"---"}})
	case "list-unordered", "list-ordered", "list-tasks":
		return listMD(out, kids, itemPaths(path.field("nodes"), len(kids)), typ, data)
	case "stepper":
		return stepperMD(out, kids, itemPaths(path.field("nodes"), len(kids)))
	case "stepper-step":
		return stepperMD(out, []any{m}, []*nodePath{path})
	case "columns":
		return columnsMD(out, data, kids, itemPaths(path.field("nodes"), len(kids)), path)
	case "column":
		return columnsMD(out, nil, []any{m}, []*nodePath{path}, path)
	case "updates":
		return updatesMD(out, data, kids, itemPaths(path.field("nodes"), len(kids)), path)
	case "list-item":
		return listMD(out, []any{n}, []*nodePath{path}, "list-unordered", nil)
	case "code":
		var lines []string
		if err := eachObject(kids, path.field("nodes"), func(lm map[string]any, p *nodePath) error {
			var spans []span
			if err := spanMD(&spans, lm, p); err != nil {
				return err
			}
			lines = append(lines, plain(spans))
			return nil
		}); err != nil {
			return err
		}
		syntax, _ := data["syntax"].(string)
		c, err := codeFrameMD(codeMD(strings.Join(lines, "\n"), syntax), data, path)
		if err != nil {
			return err
		}
		*out = append(*out, c)
	case "math":
		return mathMD(out, data, path, at)
	case "hint":
		return hintMD(out, kids, data, path)
	case "embed", "file":
		return embedMD(out, m, typ, data, path, at)
	case "content-ref":
		return contentRefMD(out, data, path, at)
	case "reusable-content":
		return includeMD(out, data, path, at)
	case "integration":
		return integrationMD(out, data, path, at)
	case "if":
		return ifMD(out, kids, data, path, at)
	case "prompt":
		return promptMD(out, kids, data, path, at)
	case "swagger", "openapi-operation", "openapi-schemas", "openapi-webhook":
		return openAPIMD(out, typ, data, path, at)
	case "tabs":
		return tabsMD(out, kids, itemPaths(path.field("nodes"), len(kids)))
	case "blockquote":
		var inner []chunk
		if err := blocksMD(&inner, kids, path.field("nodes"), inQuote); err != nil {
			return err
		}
		*out = append(*out, quoteMD(inner))
	case "images", "image", "drawing":
		return imagesMD(out, m, typ, data, kids, path, at)
	case "table":
		c, err := tableMD(m, data, path)
		if err != nil {
			return err
		}
		*out = append(*out, c)
	case "expandable":
		return expandableMD(out, m, data, path)
	case "tabs-item":
		return tabsMD(out, []any{m}, []*nodePath{path})
	case "update":
		return updatesMD(out, map[string]any{"format": "full"}, []any{m}, []*nodePath{path}, path)
	default:
		return containerMD(out, m, kids, data, path, at)
	}
	return nil
}

// containerMD writes a block of another type: its child blocks, or the
// text of its inline children, then its fragments; a void block with a URL
// or a reference is a link to it.
func containerMD(out *[]chunk, m map[string]any, kids []any, data map[string]any, path *nodePath, at place) error {
	allBlocks := true
	for _, k := range kids {
		if km, ok := k.(map[string]any); !ok || (km["object"] != "block" && km["object"] != "fragment") {
			allBlocks = false
		}
	}
	if allBlocks {
		if err := blocksMD(out, kids, path.field("nodes"), at); err != nil {
			return err
		}
	} else {
		var spans []span
		if err := spansMD(&spans, kids, path.field("nodes")); err != nil {
			return err
		}
		*out = append(*out, textMD(spans, at))
	}
	frags, err := fragmentsOf(m, path)
	if err != nil {
		return err
	}
	for _, f := range frags {
		if err := blocksMD(out, f.nodes, f.path.field("nodes"), at); err != nil {
			return err
		}
	}
	if len(kids) == 0 && len(frags) == 0 {
		target, ok := data["url"].(string)
		if !ok {
			target, ok = refTarget(data["ref"])
		}
		if ok && target != "" {
			*out = append(*out, textMD([]span{{kind: spanLink, target: target, kids: []span{{text: target}}}}, at))
		}
	}
	return nil
}

// paragraphMD writes a paragraph. In a blockquote, which Document makes of
// a code block a paragraph of code text and of a table a paragraph per row,
// a paragraph of code text that a code span cannot hold (a line break in
// it, or nothing at all) is a code block again, and an empty paragraph a
// table of one empty cell. Elsewhere an empty paragraph cannot be written.
func paragraphMD(spans []span, at place) chunk {
	codeText := at == inQuote || at == inHint // where Document makes code a paragraph
	if codeText && len(spans) == 1 && spans[0].kind == spanText && spans[0].text == "" && slices.Equal(spans[0].marks, []string{"code"}) {
		return codeMD("", "")
	}
	spans = normalize(spans)
	if len(spans) == 0 {
		if tableAsRows(at) { // where Document makes a table paragraphs
			return chunk{lines: []string{row([]string{""}), row([]string{"---"})}, para: true, empty: true}
		}
		return chunk{para: true, empty: true}
	}
	ctx := ctxPara
	if imagesBlock(at) {
		ctx = ctxTop
	}
	s := inlineMD(spans, ctx)
	if codeText && len(spans) == 1 && spans[0].kind == spanText && len(spans[0].marks) == 1 && spans[0].marks[0] == "code" &&
		!checkInline(s, spans, ctx) {
		return codeMD(spans[0].text, "")
	}
	return chunk{lines: strings.Split(s, "\n"), para: true}
}

// textMD is a paragraph of text that is not a paragraph of the document, a
// title or the text of another block: none when it is empty.
func textMD(spans []span, at place) chunk {
	if spans = normalize(spans); len(spans) == 0 {
		return chunk{}
	}
	return paragraphMD(spans, at)
}

func quoteMD(inner []chunk) chunk {
	if len(inner) == 1 && inner[0].empty {
		inner = nil // ">" alone is a quote of one empty paragraph
	}
	body := joinChunks(inner, inQuote)
	if len(body) == 0 {
		body = []string{""}
	}
	lines := make([]string, len(body))
	for i, l := range body {
		lines[i] = ">"
		if l != "" {
			lines[i] = "> " + l
		}
	}
	return chunk{lines: lines} // a blank line ends the quote, and with it any list in it
}

// emptyEnd reports whether the last of chunks ends with an empty list item.
func emptyEnd(chunks []chunk) bool {
	for i := len(chunks) - 1; i >= 0; i-- {
		if len(chunks[i].lines) > 0 {
			return chunks[i].emptyEnd
		}
	}
	return false
}

// listMD writes a list; a stepper is an ordered list of its steps. A list
// right after another of its kind takes another marker, else the two would
// be one, and so does a list whose item would read as a divider ("- - -").
func listMD(out *[]chunk, items []any, paths []*nodePath, typ string, data map[string]any) error {
	if len(items) == 0 {
		return nil
	}
	ordered := typ == "list-ordered" || typ == "stepper"
	start := 1
	if f, ok := number(data["start"]); ok && ordered && f >= 0 && f == math.Trunc(f) {
		start = int(min(f, 999999999))
	}
	bodies := make([][]string, len(items))
	checked := make([]bool, len(items))
	lastEmpty := false
	for i, it := range items {
		p := paths[i]
		m, _, err := object(it, p)
		if err != nil {
			return err
		}
		var inner []chunk
		if m["type"] == "list-item" || m["type"] == "stepper-step" {
			content, err := nodesOf(m, p)
			if err != nil {
				return err
			}
			itemData, _ := m["data"].(map[string]any)
			checked[i], _ = itemData["checked"].(bool)
			if err := blocksMD(&inner, content, p.field("nodes"), inItem); err != nil {
				return err
			}
		} else if err := blockMD(&inner, it, p, inItem); err != nil { // an item holding it
			return err
		}
		if typ == "list-tasks" && len(inner) > 0 && !inner[0].para {
			// "- [ ]" before anything but a paragraph reads back as an empty task before it
			return fmt.Errorf("%s: a task's first block must be a paragraph", p)
		}
		bodies[i] = joinChunks(inner, inItem)
		if typ == "list-tasks" && len(inner) > 1 && inner[0].empty && len(bodies[i]) > 0 {
			// the box alone on its line, a blank line, then the rest: else the box would start the block after it
			bodies[i] = append([]string{"", ""}, bodies[i]...)
		}
		lastEmpty = len(bodies[i]) == 0 && typ != "list-tasks" || emptyEnd(inner) // a task's box is not nothing
	}
	markers := []string{"-", "*", "+"}
	if ordered {
		markers = []string{".", ")"}
	}
	var c chunk
	for _, marker := range markers {
		if n := len(*out); n > 0 && (*out)[n-1].list == marker {
			continue
		}
		c = chunk{list: marker, interrupts: (!ordered || start == 1) && len(bodies[0]) > 0, emptyEnd: lastEmpty}
		divider := false
		for i, body := range bodies {
			mk := marker
			if ordered {
				mk = strconv.Itoa(min(start+i, 999999999)) + marker
			}
			indent := strings.Repeat(" ", len(mk)+1) // the item's content starts after the marker, box or not
			if typ == "list-tasks" {
				mk += map[bool]string{false: " [ ]", true: " [x]"}[checked[i]]
			}
			if len(body) == 0 {
				c.lines = append(c.lines, mk)
				continue
			}
			if body[0] == "" {
				c.lines = append(c.lines, mk)
			} else {
				c.lines = append(c.lines, mk+" "+body[0])
			}
			divider = divider || thematicBreak(mk+" "+body[0])
			for _, l := range body[1:] {
				if l != "" {
					l = indent + l
				}
				c.lines = append(c.lines, l)
			}
		}
		if !divider {
			break
		}
	}
	*out = append(*out, c)
	return nil
}

// thematicBreak reports whether line is a divider: three or more "-", "*"
// or "_", the same, and spaces.
func thematicBreak(line string) bool {
	if line == "" || !strings.ContainsRune("-*_", rune(line[0])) {
		return false
	}
	return strings.Trim(line, line[:1]+" \t") == "" && strings.Count(line, line[:1]) >= 3
}

// number is a JSON number, as decoded or as Document writes it (an int).
func number(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	}
	return 0, false
}

// codeMD is a fenced code block: backticks unless the syntax holds one,
// longer than any run of the fence character in the code. A code block has
// no escapes, so a "\r" in code (never in code Document makes) reads back
// as a line ending.
func codeMD(code, syntax string) chunk {
	fc := "`"
	if strings.Contains(syntax, "`") {
		fc = "~"
	}
	fence := strings.Repeat(fc, max(3, longestRun(code, fc[0])+1))
	info := infoMD(syntax)
	if rest, ok := strings.CutPrefix(info, "~"); ok { // it would lengthen the fence
		info = "&#126;" + rest
	}
	lines := []string{fence + info}
	if code != "" {
		lines = append(lines, strings.Split(code, "\n")...)
	}
	return chunk{lines: append(lines, fence)}
}

// infoMD escapes a code block's syntax so that it is read back whole: white
// space is a character reference (the first space ends the language).
func infoMD(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '&' && entityLike(s[i:]):
			b.WriteString(`\&`)
		case r <= ' ' || r == 0x7f || unicode.IsSpace(r):
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}
