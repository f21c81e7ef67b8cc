package quire

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestFieldParsers(t *testing.T) {
	t.Parallel()
	level := func(v string, null bool) error {
		_, err := ParseDefaultLevelOrNull("defaultLevel", Optional[string]{Set: true, Null: null, Value: v})
		return err
	}
	mode := func(v string) error { _, err := ParseEditMode("editMode", v); return err }
	team := func(v string) error { _, err := ParseTeamRole("role", v); return err }
	tests := []struct {
		name string
		err  error
		want string // "" when allowed
	}{
		{"edit mode", mode("locked"), ""},
		{"edit mode bad", mode("frozen"), "editMode: must be live or locked"},
		{"level role", level("read", false), ""},
		{"level inherit", level("inherit", false), ""},
		{"level null", level("", true), ""},
		{"level bad", level("guest", false), "defaultLevel: must be a role (admin, create, review, edit, comment, read), inherit or null"},
		{"team owner", team("owner"), ""},
		{"team bad", team("admin"), "role: must be owner or member"},
		{"spec url", CheckSpecURL("source.url", "https://example.com/openapi.json"), ""},
		{"spec url relative", CheckSpecURL("source.url", "/openapi.json"),
			"source.url: must be an http or https URL of at most 2048 characters, without credentials"},
		{"spec url credentials", CheckSpecURL("source.url", "https://u:p@example.com/"),
			"source.url: must be an http or https URL of at most 2048 characters, without credentials"},
		{"spec text", CheckSpecText("source.text", "openapi: 3.1.0"), ""},
		{"spec text empty", CheckSpecText("source.text", ""), "source.text: must be 1 to 10485760 bytes"},
		{"spec text NUL", CheckSpecText("source.text", "a\x00b"), "source.text: must not contain NUL characters"},
	}
	for _, tt := range tests {
		if got := errText(tt.err); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCheckCreateIn: the organization role decides at the top level; in a
// collection, the role on it, and a collection not seen is no parent.
func TestCheckCreateIn(t *testing.T) {
	t.Parallel()
	col := &Collection{ID: "c1", OrgID: "o1", DefaultLevel: LevelInherit}
	creator := &Viewer{Member: true, OrgRole: RoleCreate}
	editor := &Viewer{Member: true, OrgRole: RoleEdit}
	granted := &Viewer{Member: true, OrgRole: RoleRead, Grants: map[string]Role{"c1": RoleAdmin}}
	stranger := &Viewer{}
	deleted := *col
	deleted.DeletedAt = time.Unix(1, 0)
	tests := []struct {
		name   string
		v      *Viewer
		parent string
		c      *Collection
		want   string
	}{
		{"top, create", creator, "", nil, ""},
		{"top, edit", editor, "", nil, "creating content at the top level needs the create role"},
		{"in, create", creator, "c1", col, ""},
		{"in, granted", granted, "c1", col, ""},
		{"in, edit", editor, "c1", col, "creating content in this collection needs the create role on it"},
		{"in, unseen", stranger, "c1", col, `parent: no collection "c1" in the organization`},
		{"missing", creator, "c9", nil, `parent: no collection "c9" in the organization`},
		{"other org", creator, "c1", &Collection{ID: "c1", OrgID: "o2"}, `parent: no collection "c1"`},
		{"deleted", creator, "c1", &deleted, `parent: no collection "c1"`},
	}
	for _, tt := range tests {
		got := errText(tt.v.CheckCreateIn("o1", tt.parent, tt.c))
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestCheckInstructions(t *testing.T) {
	t.Parallel()
	doc := `{ "object": "document", "data": {}, "nodes": [ {"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief. 1.50"}]}]} ] }`
	got, err := CheckInstructions("instructions", json.RawMessage(doc))
	want := `{"object":"document","data":{},"nodes":[{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Be brief. 1.50"}]}]}]}`
	if err != nil || string(got) != want {
		t.Errorf("CheckInstructions = %s, %v; want %s", got, err, want)
	}
	for _, tt := range []struct {
		raw json.RawMessage
		msg string
	}{{nil, "instructions: is required"}, {json.RawMessage("null"), "instructions: is required"}, {json.RawMessage(`{"object":"x"}`), "instructions"}} {
		if _, err := CheckInstructions("instructions", tt.raw); !strings.Contains(errText(err), tt.msg) {
			t.Errorf("CheckInstructions(%s): %v, want %q", tt.raw, err, tt.msg)
		}
	}
}
