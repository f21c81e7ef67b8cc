package wire_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

func TestSpaceRequests(t *testing.T) {
	space := func() validator { return &wire.CreateSpace{} }
	update := func() validator { return &wire.UpdateSpace{} }
	move := func() validator { return &wire.MoveContent{} }
	collection := func() validator { return &wire.CreateCollection{} }
	updateCollection := func() validator { return &wire.UpdateCollection{} }
	runRequests(t, []requestCase{
		{"space defaults", `{}`, space, ""},
		{"space title long", `{"title":"` + strings.Repeat("x", 51) + `"}`, space, "title: must be at most 50 characters"},
		{"space emoji empty", `{"emoji":""}`, space, "emoji: must be 1 to 50 characters"},
		{"space edit mode", `{"editMode":"x"}`, space, "editMode: must be live or locked"},
		{"update null title", `{"title":null}`, update, "title: must be a string"},
		{"update emoji removed", `{"emoji":null}`, update, ""},
		{"update visibility", `{"visibility":"x"}`, update, "visibility: must be public, unlisted, share-link, visitor-auth, in-collection or private"},
		{"move empty", `{}`, move, ""},
		{"move both", `{"position":{"before":{"type":"space","space":"a"},"after":{"type":"space","space":"b"}}}`, move, "position: give before or after, not both"},
		{"move pointer", `{"position":{"after":{"type":"space"}}}`, move, `position.after: must be {"type":"space","space":ID} or {"type":"collection","collection":ID}`},
		{"transfer required", `{}`, func() validator { return &wire.TransferContent{} }, "organization: is required"},
		{"collection defaults", `{}`, collection, ""},
		{"collection title long", `{"title":"` + strings.Repeat("x", 51) + `"}`, collection, "title: must be at most 50 characters"},
		{"update collection description", `{"description":"` + strings.Repeat("x", 101) + `"}`, updateCollection, "description: must be at most 100 characters"},
		{"update collection level", `{"defaultLevel":"x"}`, updateCollection, "defaultLevel: must be a role (admin, create, review, edit, comment, read), inherit or null"},
	})
}

func TestMoveContentTarget(t *testing.T) {
	for _, tc := range []struct{ body, parent, sibling string }{
		{`{}`, "cur", ""},
		{`{"parent":null}`, "", ""},
		{`{"parent":"p","position":{"before":{"type":"collection","collection":"c"}}}`, "p", "c"},
	} {
		var b wire.MoveContent
		if err := quire.DecodeJSON([]byte(tc.body), &b); err != nil {
			t.Fatal(err)
		}
		if err := b.Validate(); err != nil {
			t.Fatal(err)
		}
		parent, pos := b.Target("cur")
		sibling := ""
		if pos.Before != nil {
			sibling = pos.Before.ID
		}
		if parent != tc.parent || sibling != tc.sibling {
			t.Errorf("%s: Target = %q, %+v", tc.body, parent, pos)
		}
	}
	var c wire.CreateCollection
	if title, parent := c.TitleAndParent(); title != "Untitled" || parent != "" {
		t.Errorf("TitleAndParent = %q, %q", title, parent)
	}
}
