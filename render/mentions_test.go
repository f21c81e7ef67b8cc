package render

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMentions: links to users become mention inlines, wherever they
// stand, and the "@" before them leaves the text; other links stay links.
func TestMentions(t *testing.T) {
	const ada = `{"data":{"ref":{"kind":"user","user":"u1"}},"isVoid":true,"object":"inline","type":"mention"}`
	block := func(typ, nodes string) string {
		return `{"data":{},"isVoid":false,"nodes":[` + nodes + `],"object":"block","type":"` + typ + `"}`
	}
	text := func(s string) string {
		return `{"leaves":[{"marks":[],"object":"leaf","text":"` + s + `"}],"object":"text"}`
	}
	tests := []struct{ name, markdown, want string }{
		{"in text", "hi @[Ada](user:u1)!", block("paragraph", text("hi ")+","+ada+","+text("!"))},
		{"alone", "@[Ada](user:u1)", block("paragraph", ada)},
		{"in a list", "- @[Ada](user:u1)", block("list-unordered", block("list-item", block("paragraph", ada)))},
		{"no id", "[x](user:)", block("paragraph", `{"data":{"ref":{"kind":"url","url":"user:"}},"isVoid":false,"nodes":[`+text("x")+`],"object":"inline","type":"link"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Document(tt.markdown, nil)
			Mentions(d)
			got, err := json.Marshal(d["nodes"])
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff("["+tt.want+"]", string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
