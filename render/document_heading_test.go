package render

import (
	"strings"
	"testing"
)

func TestHeadingAnchors(t *testing.T) {
	for _, tt := range []struct{ name, md, id, text string }{
		{"Git Sync's anchor", "## Title <a href=\"#custom\" id=\"custom\"></a>\n", "custom", "Title"},
		{"ids that differ", "## Title <a href=\"#a\" id=\"b\"></a>\n", "", `Title <a href="#a" id="b"></a>`},
		{"no space before it", "## Title<a href=\"#a\" id=\"a\"></a>\n", "", `Title<a href="#a" id="a"></a>`},
		{"alone", "## <a href=\"#a\" id=\"a\"></a>\n", "", `<a href="#a" id="a"></a>`},
		{"not at the end", "## <a href=\"#a\" id=\"a\"></a> Title\n", "", ` Title`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := Document(tt.md, nil)
			h := doc["nodes"].([]any)[0].(map[string]any)
			meta, _ := h["meta"].(map[string]any)
			if id, _ := meta["id"].(string); id != tt.id {
				t.Errorf("meta.id %q, want %q", id, tt.id)
			}
			if tt.id != "" && leafText(h) != tt.text {
				t.Errorf("text %q, want %q", leafText(h), tt.text)
			}
			if got := roundTrip(t, tt.md, nil, nil); got != tt.md && tt.id != "" {
				t.Errorf("written back %q, want %q", got, tt.md)
			}
		})
	}
	bad := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{"object": "block", "type": "heading-2",
		"meta": map[string]any{"id": `a "b"`}, "nodes": []any{map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "T"}}}}}}}
	if _, err := Markdown(bad); err == nil || !strings.Contains(err.Error(), "meta.id") {
		t.Errorf("Markdown of a heading id with quotes: %v, want an error naming meta.id", err)
	}
}

// leafText is the text of a node's leaves.
func leafText(n map[string]any) string {
	var b strings.Builder
	for _, ch := range n["nodes"].([]any) {
		m := ch.(map[string]any)
		for _, l := range m["leaves"].([]any) {
			b.WriteString(l.(map[string]any)["text"].(string))
		}
	}
	return b.String()
}
