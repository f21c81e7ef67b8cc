package render

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

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
