package authoring_test

import (
	"testing"

	"github.com/quiredocs/quire"
)

// TestNodeMoveRules: moving a space or a collection into another parent
// needs the create role there, and transferring one needs the admin role
// in both organizations, judged in the write's transaction; a refused move
// moves nothing.
func TestNodeMoveRules(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	orgA := f.space.OrgID
	rita, err := f.db.AddUser(ctx, orgA, "rita@example.com", "Rita", quire.RoleRead)
	if err != nil {
		t.Fatal(err)
	}
	guides, err := f.db.CreateCollection(ctx, orgA, "Guides", "")
	if err != nil {
		t.Fatal(err)
	}
	orgB, err := f.db.CreateOrganization(ctx, "Other", nil, f.userID)
	if err != nil {
		t.Fatal(err)
	}
	orgC, err := f.db.CreateOrganization(ctx, "Rita's", nil, rita.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	sp := f.space
	pos := quire.Position{}

	tests := []struct {
		name string
		do   func() error
		code quire.Code // "" when allowed
	}{
		{"a reader moves the space into a collection", func() error {
			_, err := f.author.MoveSpace(ctx, sp, rita.User.ID, guides.ID, pos)
			if got, _ := f.db.Space(ctx, sp.ID); got != nil && got.ParentID != "" {
				t.Errorf("refused move moved the space under %q", got.ParentID)
			}
			return err
		}, quire.CodeForbidden},
		{"a reader keeps the space where it is", func() error {
			_, err := f.author.MoveSpace(ctx, sp, rita.User.ID, "", pos)
			return err
		}, ""},
		{"the admin moves the space into no collection", func() error {
			_, err := f.author.MoveSpace(ctx, sp, f.userID, "nope", pos)
			return err
		}, quire.CodeInvalid},
		{"the admin moves the space into a collection", func() error {
			got, err := f.author.MoveSpace(ctx, sp, f.userID, guides.ID, pos)
			if err == nil && got.ParentID != guides.ID {
				t.Errorf("space under %q, want %q", got.ParentID, guides.ID)
			}
			return err
		}, ""},
		{"the admin moves the collection into itself", func() error {
			_, err := f.author.MoveCollection(ctx, guides, f.userID, guides.ID, pos)
			return err
		}, quire.CodeInvalid},
		{"the admin transfers to the same organization", func() error {
			_, err := f.author.TransferSpace(ctx, sp, f.userID, orgA)
			return err
		}, quire.CodeInvalid},
		{"the admin transfers to an organization not theirs", func() error {
			_, err := f.author.TransferSpace(ctx, sp, f.userID, orgC.ID)
			return err
		}, quire.CodeNotFound},
		{"a reader transfers to their own organization", func() error {
			_, err := f.author.TransferSpace(ctx, sp, rita.User.ID, orgC.ID)
			return err
		}, quire.CodeForbidden},
		{"the admin transfers the collection", func() error {
			got, err := f.author.TransferCollection(ctx, guides, f.userID, orgB.ID)
			if err == nil && got.OrgID != orgB.ID {
				t.Errorf("collection in %q, want %q", got.OrgID, orgB.ID)
			}
			if moved, _ := f.db.Space(ctx, sp.ID); moved != nil && moved.OrgID != orgB.ID {
				t.Errorf("space in the collection stayed in %q", moved.OrgID)
			}
			return err
		}, ""},
		{"the admin transfers the space back", func() error {
			moved, err := f.db.Space(ctx, sp.ID)
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.author.TransferSpace(ctx, moved, f.userID, orgA)
			if err == nil && (got.OrgID != orgA || got.ParentID != "") {
				t.Errorf("space in %q under %q, want at the top of %q", got.OrgID, got.ParentID, orgA)
			}
			return err
		}, ""},
	}
	for _, tt := range tests {
		if err := tt.do(); quire.ErrorCode(err) != tt.code {
			t.Errorf("%s: %v, want code %q", tt.name, err, tt.code)
		}
	}
}
