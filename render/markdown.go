package render

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown writes a JSON document (as decoded from JSON: map[string]any, []any, string, float64, bool) as
// markdown. Links and images to pages and files are written /pages/<id> and /files/<id>
// (with #anchor when the ref has one). An error names the node path at fault,
// e.g. "document.nodes[2].nodes[0]: missing \"object\"".
//
// It inverts Document: for markdown m, Document(Markdown(Document(m))) is
// Document(m) (links and images come back as pages and files with a
// resolver that reads /pages/ and /files/, as Resolver does). Blocks
// Document never makes are written as the markdown nearest them: a hint is
// a blockquote led by its style in bold, a task list a list of "- [x]"
// items, the title of an expandable or a tab a bold paragraph before its
// content, a stepper an ordered list, a math block a "math" code block, an
// embed or a file a link, a mention "@[name](user:<id>)", an emoji its
// character, inline math "$…$". Marks other than bold, italic,
// strikethrough and code are dropped, and so are nodes with nothing
// markdown can show (icons, expressions, OpenAPI blocks); other nodes of
// unknown types are written as their content. A node is an error only when
// its shape is unusable: not an object, without a known "object", or with
// "nodes", "leaves", "fragments", "marks" or a leaf's "text" of the wrong
// type.
func Markdown(doc map[string]any) (string, error) {
	if doc == nil {
		return "", fmt.Errorf("document: not an object")
	}
	if o, _ := doc["object"].(string); o != "document" {
		return "", fmt.Errorf("document: object must be \"document\"")
	}
	nodes, ok := doc["nodes"].([]any)
	if !ok {
		return "", fmt.Errorf("document.nodes: must be an array")
	}
	var chunks []chunk
	if err := blocksMD(&chunks, nodes, (*nodePath)(nil).field("nodes"), atTop); err != nil {
		return "", err
	}
	lines := joinChunks(chunks, atTop)
	if len(lines) == 0 {
		return "", nil
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// chunk is one written block: its lines, without the indentation or "> "
// of the blocks around it.
type chunk struct {
	lines      []string
	para       bool   // a paragraph
	empty      bool   // a paragraph with no content (lines is nil)
	list       string // a list's marker character: "-", "*", "." or ")"
	interrupts bool   // a list that may start right below a paragraph
	emptyEnd   bool   // its last line is an empty list item
}

// joinChunks puts a blank line between blocks; in a list item a list right
// below a paragraph needs none, which keeps short lists tight. Below a list
// ending with an empty item there must be none: goldmark would then end the
// list item holding both (a quirk), so below the top level it is left out.
func joinChunks(chunks []chunk, at place) []string {
	var lines []string
	var prev *chunk
	for i := range chunks {
		c := &chunks[i]
		if len(c.lines) == 0 {
			continue
		}
		if prev != nil && !(at == inItem && prev.para && c.interrupts) && !(at != atTop && prev.emptyEnd) {
			lines = append(lines, "")
		}
		lines = append(lines, c.lines...)
		prev = c
	}
	return lines
}

// nodePath is where a node is in the document, for errors: nil is the
// document itself. It is spelled out only for an error.
type nodePath struct {
	up    *nodePath
	name  string // a field of up, or "" for an item of up
	index int
}

func (p *nodePath) field(name string) *nodePath { return &nodePath{up: p, name: name} }
func (p *nodePath) item(i int) *nodePath        { return &nodePath{up: p, index: i} }

func (p *nodePath) String() string {
	switch {
	case p == nil:
		return "document"
	case p.name != "":
		return p.up.String() + "." + p.name
	}
	return p.up.String() + "[" + strconv.Itoa(p.index) + "]"
}

// nodesOf is a node's "nodes": nil when absent, an error when not an array.
func nodesOf(m map[string]any, path *nodePath) ([]any, error) {
	v, ok := m["nodes"]
	if !ok || v == nil {
		return nil, nil
	}
	nodes, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.nodes: not an array", path)
	}
	return nodes, nil
}

// object is n as a node: an object with a string "object".
func object(n any, path *nodePath) (map[string]any, string, error) {
	m, ok := n.(map[string]any)
	if !ok {
		return nil, "", fmt.Errorf("%s: not an object", path)
	}
	obj, ok := m["object"].(string)
	if !ok {
		return nil, "", fmt.Errorf("%s: missing \"object\"", path)
	}
	switch obj {
	case "document", "block", "inline", "text", "leaf", "fragment", "mark":
		return m, obj, nil
	}
	return nil, "", fmt.Errorf("%s: unknown object %q", path, obj)
}

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
		*out = append(*out, chunk{lines: []string{hashes}})
	case "divider":
		*out = append(*out, chunk{lines: []string{"---"}})
	case "list-unordered", "list-ordered", "list-tasks", "stepper":
		paths := make([]*nodePath, len(kids))
		for i := range kids {
			paths[i] = path.field("nodes").item(i)
		}
		return listMD(out, kids, paths, typ, data)
	case "list-item":
		return listMD(out, []any{n}, []*nodePath{path}, "list-unordered", nil)
	case "code":
		var lines []string
		for i, l := range kids {
			p := path.field("nodes").item(i)
			lm, _, err := object(l, p)
			if err != nil {
				return err
			}
			var spans []span
			if err := spanMD(&spans, lm, p); err != nil {
				return err
			}
			lines = append(lines, plain(spans))
		}
		syntax, _ := data["syntax"].(string)
		*out = append(*out, codeMD(strings.Join(lines, "\n"), syntax, at != inQuote))
	case "math":
		formula, _ := data["formula"].(string)
		*out = append(*out, codeMD(formula, "math", at != inQuote))
	case "blockquote", "hint":
		var inner []chunk
		if typ == "hint" {
			style, _ := data["style"].(string)
			if style == "" {
				style = "info"
			}
			r, size := utf8.DecodeRuneInString(style)
			inner = append(inner, textMD([]span{{text: string(unicode.ToUpper(r)) + style[size:], marks: []string{"bold"}}}, inQuote))
		}
		if err := blocksMD(&inner, kids, path.field("nodes"), inQuote); err != nil {
			return err
		}
		*out = append(*out, quoteMD(inner))
	case "images", "image", "drawing":
		images := kids
		if typ != "images" {
			images = []any{m}
		}
		var lines []string
		for i, img := range images {
			p := path.field("nodes").item(i)
			if typ != "images" {
				p = path
			}
			im, _, err := object(img, p)
			if err != nil {
				return err
			}
			var spans []span
			imageSpan(&spans, im)
			for _, s := range spans {
				if s.kind == spanImage {
					lines = append(lines, imageMD(s))
				}
			}
		}
		*out = append(*out, chunk{lines: lines})
	case "table":
		c, err := tableMD(m, data, path)
		if err != nil {
			return err
		}
		*out = append(*out, c)
	case "expandable", "tabs-item", "update", "prompt":
		var title []span
		switch typ {
		case "tabs-item":
			s, _ := data["title"].(string)
			title = []span{{text: s}}
		case "update":
			s, _ := data["date"].(string)
			title = []span{{text: s}}
		case "prompt":
			s, _ := data["description"].(string)
			title = []span{{text: s}}
		}
		frags, err := fragmentsOf(m, path)
		if err != nil {
			return err
		}
		var body []fragment
		for _, f := range frags {
			if f.name == "expandable-title" || f.typ == "expandable-title" {
				if err := spansMD(&title, f.nodes, f.path.field("nodes")); err != nil {
					return err
				}
				continue
			}
			body = append(body, f)
		}
		*out = append(*out, textMD(addMark(title, "bold"), at))
		if err := blocksMD(out, kids, path.field("nodes"), at); err != nil {
			return err
		}
		for _, f := range body {
			if err := blocksMD(out, f.nodes, f.path.field("nodes"), at); err != nil {
				return err
			}
		}
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

type fragment struct {
	name, typ string
	path      *nodePath
	nodes     []any
}

func fragmentsOf(m map[string]any, path *nodePath) ([]fragment, error) {
	v, ok := m["fragments"]
	if !ok || v == nil {
		return nil, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.fragments: not an array", path)
	}
	var frags []fragment
	for i, f := range list {
		p := path.field("fragments").item(i)
		fm, _, err := object(f, p)
		if err != nil {
			return nil, err
		}
		nodes, err := nodesOf(fm, p)
		if err != nil {
			return nil, err
		}
		name, _ := fm["fragment"].(string)
		typ, _ := fm["type"].(string)
		frags = append(frags, fragment{name: name, typ: typ, path: p, nodes: nodes})
	}
	return frags, nil
}

// paragraphMD writes a paragraph. In a blockquote, which Document makes of
// a code block a paragraph of code text and of a table a paragraph per row,
// a paragraph of code text that a code span cannot hold (a line break in
// it, or nothing at all) is a code block again, and an empty paragraph a
// table of one empty cell. Elsewhere an empty paragraph cannot be written.
func paragraphMD(spans []span, at place) chunk {
	if at == inQuote && len(spans) == 1 && spans[0].kind == spanText && spans[0].text == "" && slices.Equal(spans[0].marks, []string{"code"}) {
		return codeMD("", "", false)
	}
	spans = normalize(spans)
	if len(spans) == 0 {
		if at == inQuote {
			return chunk{lines: []string{row([]string{""}), row([]string{"---"})}, para: true, empty: true}
		}
		return chunk{para: true, empty: true}
	}
	ctx := ctxPara
	if at == atTop {
		ctx = ctxTop
	}
	s := inlineMD(spans, ctx)
	if at == inQuote && len(spans) == 1 && spans[0].kind == spanText && len(spans[0].marks) == 1 && spans[0].marks[0] == "code" &&
		!checkInline(s, spans, ctx) {
		return codeMD(spans[0].text, "", false)
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
		bodies[i] = joinChunks(inner, inItem)
		lastEmpty = len(bodies[i]) == 0 || emptyEnd(inner)
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
			if typ == "list-tasks" {
				mk += map[bool]string{false: " [ ]", true: " [x]"}[checked[i]]
			}
			if len(body) == 0 {
				c.lines = append(c.lines, mk)
				continue
			}
			c.lines = append(c.lines, mk+" "+body[0])
			divider = divider || thematicBreak(mk+" "+body[0])
			indent := strings.Repeat(" ", len(mk)+1)
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
// longer than any run of the fence character in the code. Document drops a
// "\r" ending a line of a code block (but not of one in a blockquote), so
// when crDropped such a line gets one more.
func codeMD(code, syntax string, crDropped bool) chunk {
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
		for _, l := range strings.Split(code, "\n") {
			if crDropped && strings.HasSuffix(l, "\r") {
				l += "\r"
			}
			lines = append(lines, l)
		}
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

// tableMD writes a table as Document makes it: a column per id in the view,
// titled and aligned by its definition, and a row per record in order,
// each value the id of a fragment with the cell's content.
func tableMD(m, data map[string]any, path *nodePath) (chunk, error) {
	defs, _ := data["definition"].(map[string]any)
	var cols []string
	if view, ok := data["view"].(map[string]any); ok {
		list, _ := view["columns"].([]any)
		for _, c := range list {
			if id, ok := c.(string); ok {
				cols = append(cols, id)
			}
		}
	} else {
		for id := range defs {
			cols = append(cols, id)
		}
		sort.Strings(cols)
	}
	if len(cols) == 0 {
		return chunk{}, nil
	}
	frags, err := fragmentsOf(m, path)
	if err != nil {
		return chunk{}, err
	}
	byName := map[string]fragment{}
	for _, f := range frags {
		if _, dup := byName[f.name]; !dup {
			byName[f.name] = f
		}
	}
	head := make([]string, len(cols))
	align := make([]string, len(cols))
	types := make([]string, len(cols))
	for i, id := range cols {
		def, _ := defs[id].(map[string]any)
		types[i], _ = def["type"].(string)
		title, _ := def["title"].(string)
		head[i] = titleMD(title)
		align[i] = map[string]string{"center": ":-:", "right": "--:"}[fmt.Sprint(def["textAlignment"])]
		if align[i] == "" {
			align[i] = "---"
		}
	}
	lines := []string{row(head), row(align)}
	records, _ := data["records"].(map[string]any)
	ids := make([]string, 0, len(records))
	for id := range records {
		ids = append(ids, id)
	}
	order := func(id string) string {
		r, _ := records[id].(map[string]any)
		s, _ := r["orderIndex"].(string)
		return s
	}
	sort.Slice(ids, func(i, j int) bool {
		if a, b := order(ids[i]), order(ids[j]); a != b {
			return a < b
		}
		return ids[i] < ids[j]
	})
	for _, id := range ids {
		r, _ := records[id].(map[string]any)
		values, _ := r["values"].(map[string]any)
		cells := make([]string, len(cols))
		for i, col := range cols {
			var spans []span
			if s, ok := values[col].(string); ok && (types[i] == "text" || types[i] == "") {
				if f, ok := byName[s]; ok {
					for j, n := range f.nodes {
						if j > 0 {
							spans = append(spans, span{text: " "})
						}
						p := f.path.field("nodes").item(j)
						m, _, err := object(n, p)
						if err != nil {
							return chunk{}, err
						}
						if err := spanMD(&spans, m, p); err != nil {
							return chunk{}, err
						}
					}
				} else {
					spans = []span{{text: s}}
				}
			} else {
				def, _ := defs[col].(map[string]any)
				valueSpans(&spans, values[col], def)
			}
			cells[i] = inlineMD(normalize(spans), ctxCell)
		}
		lines = append(lines, row(cells))
	}
	return chunk{lines: lines}, nil
}

func row(cells []string) string { return "| " + strings.Join(cells, " | ") + " |" }

// valueSpans writes a record value that is not a text: a number, a
// boolean, a reference, an image, or a list of files, users or options.
func valueSpans(out *[]span, v any, def map[string]any) {
	typ, _ := def["type"].(string)
	switch v := v.(type) {
	case string:
		*out = append(*out, span{text: v})
	case float64:
		*out = append(*out, span{text: strconv.FormatFloat(v, 'f', -1, 64)})
	case bool:
		*out = append(*out, span{text: strconv.FormatBool(v)})
	case []any:
		options, _ := def["options"].([]any)
		for i, item := range v {
			if i > 0 {
				*out = append(*out, span{text: ", "})
			}
			s := fmt.Sprint(item)
			switch typ {
			case "files":
				*out = append(*out, span{kind: spanLink, target: "/files/" + s, kids: []span{{text: s}}})
				continue
			case "users":
				*out = append(*out, span{text: "@"}, span{kind: spanLink, target: "user:" + s, kids: []span{{text: s}}})
				continue
			case "select":
				for _, o := range options {
					if o, _ := o.(map[string]any); o["value"] == s {
						s = fmt.Sprint(o["label"])
					}
				}
			}
			*out = append(*out, span{text: s})
		}
	case map[string]any:
		ref := any(v)
		if r, ok := v["ref"]; ok {
			ref = r
		}
		t, ok := refTarget(ref)
		switch {
		case !ok:
		case typ == "image":
			alt, _ := v["alt"].(string)
			*out = append(*out, span{kind: spanImage, target: t, alt: alt})
		default:
			*out = append(*out, span{kind: spanLink, target: t, kids: []span{{text: t}}})
		}
	}
}

// refTarget is where a content reference is written to point: a URL as it
// is, "/pages/<id>" and "/files/<id>" (which Resolver.Resolve reads back),
// "#anchor" in the page itself, "user:<id>" for a user.
func refTarget(v any) (string, bool) {
	ref, _ := v.(map[string]any)
	str := func(k string) string { s, _ := ref[k].(string); return s }
	var t string
	switch str("kind") {
	case "url":
		u, ok := ref["url"].(string)
		return u, ok
	case "page":
		if str("page") == "" {
			return "", false
		}
		t = "/pages/" + str("page")
	case "file":
		if str("file") == "" {
			return "", false
		}
		return "/files/" + str("file"), true
	case "anchor":
		if str("page") != "" {
			t = "/pages/" + str("page")
		}
	case "user":
		if str("user") == "" {
			return "", false
		}
		return "user:" + str("user"), true
	default:
		return "", false
	}
	if a := str("anchor"); a != "" {
		t += "#" + a
	}
	return t, t != ""
}

// A span is inline content in the form markdown can write: text with its
// marks, a link around spans, or an image.
type span struct {
	kind   spanKind
	text   string   // spanText
	marks  []string // spanText: "bold", "italic", "strikethrough", outermost first, then "code"
	target string   // spanLink, spanImage: the destination
	alt    string   // spanImage
	kids   []span   // spanLink: text and images
}

type spanKind int

const (
	spanText spanKind = iota
	spanLink
	spanImage
)

// spansMD appends the spans of inline nodes (texts and inlines) to out.
func spansMD(out *[]span, nodes []any, path *nodePath) error {
	for i, n := range nodes {
		p := path.item(i)
		m, _, err := object(n, p)
		if err != nil {
			return err
		}
		if err := spanMD(out, m, p); err != nil {
			return err
		}
	}
	return nil
}

// spanMD appends the spans of node m: a text's leaves, an inline, or the
// content of a block where inline content belongs.
func spanMD(out *[]span, m map[string]any, path *nodePath) error {
	obj, _ := m["object"].(string)
	kids, err := nodesOf(m, path)
	if err != nil {
		return err
	}
	switch obj {
	case "text":
		leaves, ok := m["leaves"].([]any)
		if !ok {
			return fmt.Errorf("%s.leaves: must be an array", path)
		}
		for i, l := range leaves {
			p := path.field("leaves").item(i)
			lm, _, err := object(l, p)
			if err != nil {
				return err
			}
			if err := leafMD(out, lm, p); err != nil {
				return err
			}
		}
		return nil
	case "leaf":
		return leafMD(out, m, path)
	case "mark":
		return fmt.Errorf("%s: a mark is not inline content", path)
	case "block", "document", "fragment":
		if m["type"] == "image" || m["type"] == "drawing" {
			imageSpan(out, m)
			return nil
		}
		return spansMD(out, kids, path.field("nodes"))
	}
	data, _ := m["data"].(map[string]any)
	str := func(k string) string { s, _ := data[k].(string); return s }
	switch m["type"] {
	case "link":
		var inner []span
		if err := spansMD(&inner, kids, path.field("nodes")); err != nil {
			return err
		}
		if t, ok := refTarget(data["ref"]); ok {
			*out = append(*out, span{kind: spanLink, target: t, kids: inner})
		} else {
			*out = append(*out, inner...)
		}
	case "inline-image":
		imageSpan(out, m)
	case "emoji":
		*out = append(*out, span{text: emojiText(str("code"))})
	case "inline-math", "math":
		*out = append(*out, span{text: "$" + str("formula") + "$"})
	case "mention", "button":
		name := str("label")
		for _, k := range []string{"name", "text", "title"} {
			if name == "" {
				name = str(k)
			}
		}
		t, ok := refTarget(data["ref"])
		switch {
		case ok && m["type"] == "mention" && strings.HasPrefix(t, "user:"):
			if name == "" {
				name = strings.TrimPrefix(t, "user:")
			}
			*out = append(*out, span{text: "@"}, span{kind: spanLink, target: t, kids: []span{{text: name}}})
		case ok:
			if name == "" {
				name = t
			}
			*out = append(*out, span{kind: spanLink, target: t, kids: []span{{text: name}}})
		case name != "":
			*out = append(*out, span{text: name})
		}
	default: // annotations and unknown inlines: their content
		return spansMD(out, kids, path.field("nodes"))
	}
	return nil
}

// leafMD appends a leaf as a text span with its marks' types.
func leafMD(out *[]span, m map[string]any, path *nodePath) error {
	s, ok := m["text"].(string)
	if !ok {
		return fmt.Errorf("%s.text: must be a string", path)
	}
	var marks []string
	if v, ok := m["marks"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s.marks: must be an array", path)
		}
		for i, mk := range list {
			mm, ok := mk.(map[string]any)
			if !ok {
				return fmt.Errorf("%s.marks[%d]: not an object", path, i)
			}
			marks = append(marks, fmt.Sprint(mm["type"]))
		}
	}
	*out = append(*out, span{text: s, marks: marks})
	return nil
}

// imageSpan is an image, or its alt text when its reference has no target.
func imageSpan(out *[]span, m map[string]any) {
	data, _ := m["data"].(map[string]any)
	alt, _ := data["alt"].(string)
	if t, ok := refTarget(data["ref"]); ok {
		*out = append(*out, span{kind: spanImage, target: t, alt: alt})
	} else if alt != "" {
		*out = append(*out, span{text: alt})
	}
}

// emojiText is an emoji's character from its code: code points in hex
// ("1f600", "1f468-200d-1f469"), the emoji itself, or a name (":name:").
func emojiText(code string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(code, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }) {
		n, err := strconv.ParseUint(strings.TrimPrefix(strings.ToLower(part), "u+"), 16, 32)
		if err != nil || n > unicode.MaxRune || n < 0x20 || !utf8.ValidRune(rune(n)) {
			b.Reset()
			break
		}
		b.WriteRune(rune(n))
	}
	switch {
	case b.Len() > 0:
		return b.String()
	case code == "" || strings.IndexFunc(code, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0:
		return code
	}
	return ":" + code + ":"
}

// normalize merges neighbouring texts with the same marks and drops empty
// ones; marks are those markdown writes, once each, code innermost; a link
// inside a link gives its content.
func normalize(spans []span) []span {
	var out []span
	for _, s := range spans {
		switch s.kind {
		case spanText:
			if s.text == "" {
				continue
			}
			s.marks = cleanMarks(s.marks)
			if n := len(out); n > 0 && out[n-1].kind == spanText && slices.Equal(out[n-1].marks, s.marks) {
				out[n-1].text += s.text
				continue
			}
		case spanLink:
			s.kids = normalize(unlink(s.kids))
		}
		out = append(out, s)
	}
	return out
}

// unlink replaces the links in spans, but autolinks, with their content:
// only an autolink can be inside a link.
func unlink(spans []span) []span {
	var out []span
	for _, s := range spans {
		if s.kind == spanLink && !autolink(s) {
			out = append(out, unlink(s.kids)...)
		} else {
			out = append(out, s)
		}
	}
	return out
}

func cleanMarks(marks []string) []string {
	var out []string
	code := false
	for _, m := range marks {
		switch m {
		case "code":
			code = true
		case "bold", "italic", "strikethrough":
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	if code {
		out = append(out, "code")
	}
	return out
}

// addMark adds mark m, outermost, to every text of spans.
func addMark(spans []span, m string) []span {
	out := make([]span, len(spans))
	for i, s := range spans {
		if s.kind == spanText && !slices.Contains(s.marks, m) {
			s.marks = append([]string{m}, s.marks...)
		}
		s.kids = addMark(s.kids, m)
		out[i] = s
	}
	return out
}

func equalSpans(a, b []span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.kind != y.kind || x.text != y.text || !slices.Equal(x.marks, y.marks) || x.target != y.target || x.alt != y.alt || !equalSpans(x.kids, y.kids) {
			return false
		}
	}
	return true
}

// plain is the text of spans, marks and links dropped.
func plain(spans []span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.text)
		b.WriteString(plain(s.kids))
	}
	return b.String()
}

// ictx is where inline content is written.
type ictx int

const (
	ctxPara    ictx = iota // a paragraph below the top level
	ctxTop                 // a top-level paragraph: images alone would be an images block
	ctxHeading             // an ATX heading: one line, trailing "#"s would close it
	ctxCell                // a table cell: one line, "|" ends it
)

// writeMode is how carefully inline content is written. Each is tried in
// turn until markdown reads back as what was written (checkInline).
type writeMode int

const (
	modeNatural    writeMode = iota // "*italic*", escapes only where needed
	modeUnderscore                  // "_italic_", so it never joins a "**"
	modeSafe                        // every punctuation escaped, no line breaks, and the characters next to "_", "**" and "~~" written so they always open and close
)

// inlineMD writes spans in ctx in the first mode that reads back.
func inlineMD(spans []span, ctx ictx) string {
	spans = normalize(spans)
	var s, prev string
	for mode := modeNatural; mode <= modeSafe; mode++ {
		s = (&iwriter{ctx: ctx, mode: mode}).write(spans)
		if mode > modeNatural && s == prev {
			continue
		}
		if checkInline(s, spans, ctx) {
			return s
		}
		prev = s
	}
	return s
}

// checkInline reports whether s, written in ctx, reads back as want.
func checkInline(s string, want []span, ctx ictx) bool {
	src := s
	switch ctx {
	case ctxHeading:
		src = "# " + s
	case ctxCell:
		src = "| x |\n| --- |\n| " + s + " |"
	}
	c := &converter{src: []byte(src)}
	doc := gfmParser.Parse(text.NewReader(c.src))
	n := doc.FirstChild()
	if n == nil || n.NextSibling() != nil {
		return false
	}
	switch ctx {
	case ctxHeading:
		if _, ok := n.(*ast.Heading); !ok {
			return false
		}
	case ctxCell:
		t, ok := n.(*east.Table)
		if !ok || t.FirstChild().NextSibling() == nil || t.FirstChild().NextSibling().NextSibling() != nil {
			return false
		}
		n = t.FirstChild().NextSibling().FirstChild()
	default:
		if _, ok := n.(*ast.Paragraph); !ok || ctx == ctxTop && c.images(n) != nil {
			return false
		}
	}
	var got []span
	return spansMD(&got, c.inlines(n, nil), nil) == nil && equalSpans(normalize(got), want)
}

// titleMD writes a column title, which Document reads as the header cell's
// plain text.
func titleMD(title string) string {
	spans := normalize([]span{{text: title}})
	var s string
	for _, mode := range []writeMode{modeNatural, modeSafe} {
		s = (&iwriter{ctx: ctxCell, mode: mode, plain: true}).write(spans)
		src := []byte("| " + s + " |\n| --- |")
		doc := gfmParser.Parse(text.NewReader(src))
		if t, ok := doc.FirstChild().(*east.Table); ok && doc.ChildCount() == 1 &&
			t.FirstChild().ChildCount() == 1 && plainText(t.FirstChild().FirstChild(), src) == title {
			break
		}
	}
	return s
}

func imageMD(s span) string { return inlineMD([]span{s}, ctxPara) }

type iwriter struct {
	b         strings.Builder
	ctx       ictx
	mode      writeMode
	plain     bool       // writing what Document reads as plain text: alt text, a column title
	stack     []openMark // the marks open, outermost first
	lineStart bool       // nothing written yet on this line
}

type openMark struct{ name, delim string }

func (w *iwriter) write(spans []span) string {
	w.lineStart = true
	images := w.ctx == ctxTop && !slices.ContainsFunc(spans, func(s span) bool { return s.kind != spanImage })
	if images { // alone they would be an images block; emphasis, marking no text, keeps them a paragraph
		w.b.WriteString("*")
	}
	w.seq(spans, 0, true, false)
	if images {
		w.b.WriteString("*")
	}
	return w.b.String()
}

// step is what changes before a span: the marks kept open, then those
// opened.
type step struct {
	keep int
	open []string
}

// seq writes spans, leaving the first base marks open; end says they end
// the paragraph, heading or cell, inLink that they are a link's text.
func (w *iwriter) seq(spans []span, base int, end, inLink bool) {
	cur := make([]string, len(w.stack))
	for i, m := range w.stack {
		cur[i] = m.name
	}
	steps := make([]step, len(spans)+1)
	for i, s := range spans {
		switch s.kind {
		case spanText:
			em := emphasis(s.marks)
			k := max(commonPrefix(cur, em), base)
			steps[i] = step{keep: k, open: em[min(k, len(em)):]}
			cur = append(cur[:k:k], steps[i].open...)
		case spanLink: // marks stay open across a link only when all its text has them
			if w.auto(s, inLink) { // its marks are opened around it
				em := emphasis(s.kids[0].marks)
				k := max(commonPrefix(cur, em), base)
				steps[i] = step{keep: k, open: em[min(k, len(em)):]}
				cur = append(cur[:k:k], steps[i].open...)
				continue
			}
			k := max(keptOpen(cur, s.kids), base)
			steps[i] = step{keep: k}
			cur = cur[:k]
		default:
			steps[i] = step{keep: len(cur)}
		}
	}
	steps[len(spans)] = step{keep: base}
	for i, s := range spans {
		e := edges{before: w.boundary(steps[i]), opened: len(steps[i].open) > 0, end: end && i == len(spans)-1}
		switch s.kind {
		case spanText:
			next := steps[i+1]
			e.closes = next.keep < len(w.stack)
			e.after = e.closes || len(next.open) > 0
			if slices.Contains(s.marks, "code") {
				w.code(s.text)
			} else {
				w.text(s.text, e)
			}
		case spanLink:
			w.lineStart = false
			if w.auto(s, inLink) {
				w.b.WriteString("<" + s.kids[0].text + ">")
				continue
			}
			w.b.WriteString("[")
			w.seq(s.kids, len(w.stack), false, true)
			w.b.WriteString("](" + w.dest(s.target) + ")")
		case spanImage:
			w.lineStart = false
			w.b.WriteString("![")
			alt := &iwriter{ctx: w.ctx, mode: w.mode, plain: true}
			alt.text(s.alt, edges{})
			w.b.WriteString(alt.b.String() + "](" + w.dest(s.target) + ")")
		}
	}
	w.boundary(steps[len(spans)])
}

// boundary closes and opens marks, and reports whether it wrote any. A
// "*" italic next to a "**" would make one run of three, so it is "_" there.
func (w *iwriter) boundary(st step) bool {
	wrote, star := false, false
	for len(w.stack) > st.keep {
		m := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		w.b.WriteString(m.delim)
		wrote, star = true, strings.HasSuffix(m.delim, "*")
	}
	for i, name := range st.open {
		d := map[string]string{"bold": "**", "italic": "*", "strikethrough": "~~"}[name]
		if name == "italic" && (w.mode != modeNatural || star || i+1 < len(st.open) && st.open[i+1] == "bold") {
			d = "_"
		}
		w.stack = append(w.stack, openMark{name, d})
		w.b.WriteString(d)
		wrote, star = true, strings.HasSuffix(d, "*")
	}
	if wrote {
		w.lineStart = false
	}
	return wrote
}

// edges says what is written around a text: before, marks closed or
// opened (opened: some opened); after, marks closed (closes: some closed)
// or opened; end: nothing, the paragraph, heading or cell ends.
type edges struct{ before, opened, after, closes, end bool }

// text writes s escaped. A mark's "*" or "_" opens only before, and closes
// only after, something other than white space, so white space there is a
// character reference; in safe mode so is any character next to a mark
// that is not escaped punctuation. Trailing space, dropped at the end of a
// paragraph, heading or cell, is one too.
func (w *iwriter) text(s string, e edges) {
	safe := w.mode == modeSafe
	blank := safe && strings.TrimFunc(s, unicode.IsSpace) == "" // between images it must not be white space
	para := w.ctx == ctxPara || w.ctx == ctxTop
	breaks := para && !w.plain && !safe
	lastAt := len(s) - 1 // the character before what follows, as the parser decodes it
	for lastAt > 0 && !utf8.RuneStart(s[lastAt]) {
		lastAt--
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		last := i+size == len(s)
		next, prev := rune(-1), rune(-1)
		if !last {
			next, _ = utf8.DecodeRuneInString(s[i+size:])
		}
		if i > 0 {
			prev, _ = utf8.DecodeLastRuneInString(s[:i])
		}
		inner := i == 0 && e.opened || i == lastAt && e.closes
		edge := safe && (i == 0 && e.before || i == lastAt && e.after)
		start := w.lineStart
		w.lineStart = false
		switch {
		case r == 0 && w.plain: // text would read it as U+FFFD, code as it is
			j := i
			for j < len(s) && s[j] == 0 {
				j++
			}
			w.b.WriteString("`" + s[i:j] + "`")
			i = j
			continue
		case r == utf8.RuneError && size == 1:
			w.b.WriteByte(s[i])
		case r == '\n' && breaks && !start && !last && next != '\n':
			w.b.WriteString("\\\n") // a hard line break
			w.lineStart = true
		case r == '~' && i == lastAt && e.after: // "~" before "~~" would stop it being one
			w.b.WriteString("&#126;")
		case safe && r < utf8.RuneSelf && unicode.IsPunct(r) || safe && r < utf8.RuneSelf && unicode.IsSymbol(r):
			w.b.WriteString("\\" + string(r))
		case r == '\n' || r == '\r' || r == '\v' || r == '\f',
			unicode.IsSpace(r) && (inner || start || last && e.end || blank),
			edge:
			fmt.Fprintf(&w.b, "&#%d;", r)
		case start && para && strings.ContainsRune("#>-+=|:~`*_<[\\", r): // what would start a block
			w.b.WriteString("\\" + string(r))
		case start && para && '0' <= r && r <= '9':
			j := i
			for j < len(s) && '0' <= s[j] && s[j] <= '9' {
				j++
			}
			if j-i <= 9 && j < len(s) && (s[j] == '.' || s[j] == ')') { // an ordered list item
				w.b.WriteString(s[i:j] + "\\" + s[j:j+1])
				i = j + 1
				continue
			}
			w.b.WriteRune(r)
		case strings.ContainsRune("\\`*[]~", r),
			r == '_' && !(isAlnum(prev) && isAlnum(next)),
			r == '<' && (last || next == '/' || next == '!' || next == '?' || next < utf8.RuneSelf && unicode.IsLetter(next)),
			r == '&' && entityLike(s[i:]),
			r == '!' && last,
			r == '|' && w.ctx == ctxCell,
			r == '#' && w.ctx == ctxHeading && last && e.end:
			w.b.WriteString("\\" + string(r))
		default:
			w.b.WriteString(s[i : i+size])
		}
		i += size
	}
}

// code writes a code span: a run of backticks longer than any in it, padded
// with a space when it starts or ends with a backtick, or with a space at
// each end (one of which would be dropped).
func (w *iwriter) code(t string) {
	w.lineStart = false
	fence := strings.Repeat("`", longestRun(t, '`')+1)
	pad := t[0] == '`' || t[len(t)-1] == '`' ||
		(t[0] == ' ' || t[0] == '\n') && (t[len(t)-1] == ' ' || t[len(t)-1] == '\n') && !util.IsBlank([]byte(t))
	if w.ctx == ctxCell {
		t = strings.ReplaceAll(t, "|", `\|`)
	}
	if pad {
		t = " " + t + " "
	}
	w.b.WriteString(fence + t + fence)
}

// dest writes a link destination so that decode reads it back: in angle
// brackets when it has a space or unbalanced parentheses, "&" before what
// looks like an entity as "&amp;" (decode would resolve "\&amp;" too).
func (w *iwriter) dest(t string) string {
	angle := t == "" || strings.ContainsRune(t, ' ') || !balanced(t)
	var b strings.Builder
	if angle {
		b.WriteByte('<')
	}
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		switch {
		case r == '\\' || r == '<' || r == '>' || r == '|' && w.ctx == ctxCell:
			b.WriteString("\\" + string(r))
		case r == '&' && entityLike(t[i:]):
			b.WriteString("&amp;")
		case r < ' ' && r != 0 || r == 0x7f:
			fmt.Fprintf(&b, "&#%d;", r)
		default:
			b.WriteString(t[i : i+size])
		}
		i += size
	}
	if angle {
		b.WriteByte('>')
	}
	return b.String()
}

// balanced reports whether the parentheses of t pair up (its backslashes
// are escaped, so none escapes a parenthesis).
func balanced(t string) bool {
	depth := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// entityLike reports whether s starts with what reads as a character
// reference: "&", an optional "#", letters or digits, ";".
func entityLike(s string) bool {
	i := 1
	if i < len(s) && s[i] == '#' {
		i++
	}
	j := i
	for j < len(s) && j < 40 && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return j > i && j < len(s) && s[j] == ';'
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// emphasis is marks without code, which is written as a code span.
func emphasis(marks []string) []string {
	if n := len(marks); n > 0 && marks[n-1] == "code" {
		return marks[:n-1]
	}
	return marks
}

// keptOpen is how many of the marks open can stay open around spans: those
// all their text has.
func keptOpen(open []string, spans []span) int {
	k := len(open)
	for _, s := range spans {
		switch s.kind {
		case spanText:
			k = min(k, commonPrefix(open, emphasis(s.marks)))
		case spanLink:
			k = min(k, keptOpen(open, s.kids))
		}
	}
	return k
}

func commonPrefix(a, b []string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// auto reports whether link s is written "<target>": in natural mode when
// it can be, and always inside a link, where only an autolink can be.
func (w *iwriter) auto(s span, inLink bool) bool {
	if w.ctx == ctxCell && len(s.kids) == 1 && strings.Contains(strings.ReplaceAll(s.kids[0].text, `\|`, ""), "|") {
		return false // it would end the cell
	}
	return (inLink || w.mode == modeNatural) && autolink(s)
}

// autolink reports whether link s can be written "<target>": its text, not
// code, reads back as an autolink to its target, as goldmark finds one.
func autolink(s span) bool {
	if len(s.kids) != 1 || s.kids[0].kind != spanText || slices.Contains(s.kids[0].marks, "code") {
		return false
	}
	t := s.kids[0].text
	line := []byte(t + ">")
	if n := util.FindEmailIndex(line); n >= 0 {
		return n == len(t) && s.target == "mailto:"+t
	}
	return util.FindURLIndex(line) == len(t) && s.target == t
}
