package render

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMentions: links to users become mention inlines, wherever they
// stand, and the "@" before them leaves the text; other links stay links.
func TestMentions(t *testing.T) {
	ada := func(key string) string {
		return `{"data":{"ref":{"kind":"user","user":"u1"}},"isVoid":true,"key":"` + key + `","object":"inline","type":"mention"}`
	}
	block := func(typ, key, nodes string) string {
		return `{"data":{},"isVoid":false,"key":"` + key + `","nodes":[` + nodes + `],"object":"block","type":"` + typ + `"}`
	}
	text := func(s string) string {
		return `{"leaves":[{"marks":[],"object":"leaf","text":"` + s + `"}],"object":"text"}`
	}
	tests := []struct{ name, markdown, want string }{
		{"in text", "hi @[Ada](user:u1)!", block("paragraph", "k1", text("hi ")+","+ada("k2")+","+text("!"))},
		{"alone", "@[Ada](user:u1)", block("paragraph", "k1", ada("k2"))},
		{"in a list", "- @[Ada](user:u1)", block("list-unordered", "k1", block("list-item", "k2", block("paragraph", "k3", ada("k4"))))},
		{"no id", "[x](user:)", block("paragraph", "k1", `{"data":{"ref":{"kind":"url","url":"user:"}},"isVoid":false,"key":"k2","nodes":[`+text("x")+`],"object":"inline","type":"link"}`)},
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
