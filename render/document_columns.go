package render

import (
	"fmt"
	"strconv"
	"strings"
)

// columns converts columns (see document_items.go): a columns block of
// columns at the top level, each with its width ({% column width="50%" %}
// is {"unit":"%","value":50}); elsewhere the columns' content.
func (c *converter) columns(n *formNode, at place) []any {
	if at != atTop {
		return c.flatItems(n, "column", at, func(map[string]string) string { return "" })
	}
	cols := []any{}
	for _, it := range c.items(n, "column", inColumn) {
		data := map[string]any{}
		if w, ok := parseLength(it.attrs["width"]); ok {
			data["width"] = w
		}
		cols = append(cols, block("column", data, it.nodes))
	}
	return []any{block("columns", nil, cols)}
}

// parseLength reads a length as Git Sync writes a column's width: a number
// and its unit, "50%" or "200px".
func parseLength(s string) (map[string]any, bool) {
	i := strings.IndexFunc(s, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.') })
	if i <= 0 {
		return nil, false
	}
	v, err := strconv.ParseFloat(s[:i], 64)
	unit := s[i:]
	if err != nil || strings.TrimFunc(unit, func(r rune) bool { return r == '%' || r >= 'a' && r <= 'z' }) != "" {
		return nil, false
	}
	return map[string]any{"unit": unit, "value": v}, true
}

// columnsMD writes columns as Git Sync does. Markdown has no form for the
// columns' fullWidth nor a column's vertical alignment, nor for a width
// that is a bare number: they are refused.
func columnsMD(out *[]chunk, data map[string]any, cols []any, paths []*nodePath, path *nodePath) error {
	if full, _ := data["fullWidth"].(bool); full {
		return fmt.Errorf("%s.data.fullWidth: cannot be written as markdown", path)
	}
	return itemsMD(out, "columns", "", "column", "column", cols, paths, inColumn, func(data map[string]any, p *nodePath) (string, error) {
		if err := noData(data, p, "verticalAlignment"); err != nil {
			return "", err
		}
		w, ok := data["width"]
		if !ok {
			return "", nil
		}
		m, _ := w.(map[string]any)
		v, okV := number(m["value"])
		unit, _ := m["unit"].(string)
		s := strconv.FormatFloat(v, 'f', -1, 64) + unit
		if l, okL := parseLength(s); !okV || !okL || l["unit"] != unit {
			return "", fmt.Errorf("%s.data.width: only a number and a unit (50%%) can be written as markdown", p)
		}
		return ` width="` + s + `"`, nil
	})
}
