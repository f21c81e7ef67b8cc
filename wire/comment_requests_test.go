package wire_test

import (
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

func TestCommentRequests(t *testing.T) {
	post := func() validator { return &wire.PostComment{} }
	update := func() validator { return &wire.UpdateComment{} }
	reply := func() validator { return &wire.PostCommentReply{} }
	runRequests(t, []requestCase{
		{"body required", `{}`, post, "body: is required"},
		{"markdown required", `{"body":{}}`, post, "body.markdown: is required"},
		{"node needs page", `{"body":{"markdown":"hi"},"node":"n"}`, post, "node: needs the page it is in (page)"},
		{"node empty", `{"body":{"markdown":"hi"},"node":""}`, post, "node: must be 1 to 128 characters"},
		{"post", `{"body":{"markdown":"hi"},"node":"n","page":"p"}`, post, ""},
		{"update resolved null", `{"resolved":null}`, update, "resolved: must be a boolean"},
		{"update nothing", `{}`, update, ""},
		{"unresolvable", `{"resolved":true}`, func() validator { return &wire.UpdateComment{Unresolvable: true} }, "resolved: replies to space comments cannot be resolved; resolve the comment"},
		{"reply body required", `{}`, reply, "body: is required"},
	})
}

func TestCommentMarkdown(t *testing.T) {
	var b wire.PostCommentReply
	if err := quire.DecodeJSON([]byte(`{"body":{"markdown":"a\r\nb"}}`), &b); err != nil {
		t.Fatal(err)
	}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	if b.Markdown() != "a\nb" {
		t.Errorf("Markdown = %q, want LF line endings", b.Markdown())
	}
	var u wire.UpdateComment
	if err := quire.DecodeJSON([]byte(`{"resolved":true,"body":{"markdown":"x"}}`), &u); err != nil {
		t.Fatal(err)
	}
	if err := u.Validate(); err != nil {
		t.Fatal(err)
	}
	if up := u.Update(); up.Resolved == nil || !*up.Resolved || up.Markdown == nil || *up.Markdown != "x" {
		t.Errorf("Update = %+v", up)
	}
}
