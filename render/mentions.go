package render

import "strings"

// mentionScheme marks a link to a user: @[Name](user:<userId>), as Markdown
// writes mention inlines.
const mentionScheme = "user:"

// Mentions turns, in a document (from Document), links to "user:<id>" into
// the reference's mention inlines (DocumentInlineMention), taking the "@"
// written before them out of the text: the document form of a comment body.
func Mentions(doc map[string]any) { doc["nodes"] = mentions(doc["nodes"].([]any)) }

func mentions(nodes []any) []any {
	out := nodes[:0]
	for _, n := range nodes {
		m, ok := n.(map[string]any)
		if !ok {
			out = append(out, n)
			continue
		}
		if id, ok := mentionOf(m); ok {
			if len(out) > 0 {
				if prev, ok := out[len(out)-1].(map[string]any); ok && trimAt(prev) {
					out = out[:len(out)-1]
				}
			}
			mention := map[string]any{"object": "inline", "type": "mention", "isVoid": true,
				"data": map[string]any{"ref": map[string]any{"kind": "user", "user": id}}}
			if key, ok := m["key"]; ok { // the link's key (keyNodes)
				mention["key"] = key
			}
			out = append(out, mention)
			continue
		}
		if children, ok := m["nodes"].([]any); ok {
			m["nodes"] = mentions(children)
		}
		out = append(out, m)
	}
	return out
}

// mentionOf returns the user id of a link inline to "user:<id>".
func mentionOf(m map[string]any) (string, bool) {
	if m["object"] != "inline" || m["type"] != "link" {
		return "", false
	}
	data, _ := m["data"].(map[string]any)
	ref, _ := data["ref"].(map[string]any)
	url, _ := ref["url"].(string)
	id, ok := strings.CutPrefix(url, mentionScheme)
	return id, ok && ref["kind"] == "url" && id != ""
}

// trimAt removes a trailing "@" from a text node and reports whether the
// node is left empty.
func trimAt(text map[string]any) bool {
	leaves, _ := text["leaves"].([]any)
	if text["object"] != "text" || len(leaves) == 0 {
		return false
	}
	last, _ := leaves[len(leaves)-1].(map[string]any)
	s, _ := last["text"].(string)
	if !strings.HasSuffix(s, "@") {
		return false
	}
	if s = strings.TrimSuffix(s, "@"); s != "" {
		last["text"] = s
		return false
	}
	text["leaves"] = leaves[:len(leaves)-1]
	return len(leaves) == 1
}
