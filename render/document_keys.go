package render

import "strconv"

// keyNodes gives every block, inline and fragment of a document a key,
// unique in it: GitBook's renderer keys its React elements, and tabs' ids,
// by them, and refuses tabs without one. Markdown holds no keys, so they
// are numbered in document order: the same markdown has the same keys, and
// a document written back as markdown and read again has them too.
func keyNodes(nodes []any) {
	n := 0
	var walk func(nodes []any)
	walk = func(nodes []any) {
		for _, node := range nodes {
			m, ok := node.(map[string]any)
			if !ok {
				continue
			}
			switch m["object"] {
			case "block", "inline", "fragment":
				n++
				m["key"] = "k" + strconv.Itoa(n)
			}
			if kids, ok := m["nodes"].([]any); ok {
				walk(kids)
			}
			if frags, ok := m["fragments"].([]any); ok {
				walk(frags)
			}
		}
	}
	walk(nodes)
}
