package quire

import "testing"

// TestCommentPermissionsOf: who may comment replies; the author edits; the
// author or an admin deletes; below the comment role, nothing.
func TestCommentPermissionsOf(t *testing.T) {
	t.Parallel()
	c := &Comment{PostedBy: User{ID: "ann"}}
	tests := []struct {
		role Role
		user string
		want CommentPermissions
	}{
		{RoleRead, "ann", CommentPermissions{}},
		{RoleGuest, "bob", CommentPermissions{}},
		{RoleComment, "ann", CommentPermissions{Edit: true, Reply: true, Delete: true}},
		{RoleComment, "bob", CommentPermissions{Reply: true}},
		{RoleEdit, "bob", CommentPermissions{Reply: true}},
		{RoleAdmin, "bob", CommentPermissions{Reply: true, Delete: true}},
		{RoleAdmin, "ann", CommentPermissions{Edit: true, Reply: true, Delete: true}},
	}
	for _, tt := range tests {
		if got := CommentPermissionsOf(tt.role, c, tt.user); got != tt.want {
			t.Errorf("CommentPermissionsOf(%s, %s) = %+v, want %+v", tt.role, tt.user, got, tt.want)
		}
	}
}
