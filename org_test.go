package quire

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCheckMergeRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		raw     string
		null    bool
		want    string // the rules re-encoded, when allowed
		wantErr string
	}{
		{raw: `{"type":"none","rules":[{"rule":"custom"}]}`, want: `{"type":"none"}`},
		{raw: `{"type":"rules"}`, want: `{"type":"rules","rules":[]}`},
		{raw: `{"type":"rules","rules":[{"rule":"allow_bypass","users":["u1"]}, {"rule":"custom","expression":"x"}]}`,
			want: `{"type":"rules","rules":[{"rule":"allow_bypass","users":["u1"]},{"rule":"custom","expression":"x"}]}`},
		{null: true, wantErr: `mergeRules: must be {"type":"none"} or {"type":"rules","rules":[…]}`},
		{raw: `[]`, wantErr: `mergeRules: must be {"type":"none"} or {"type":"rules","rules":[…]}`},
		{raw: `{"type":"some"}`, wantErr: `mergeRules.type: must be "none" or "rules"`},
		{raw: `{"type":"rules","rules":[{"rule":"nope"}]}`, wantErr: "mergeRules.rules[0].rule: must be a known merge rule"},
		{raw: `{"type":"rules","rules":[{"rule":"custom","expression":"x"},{"rule":"allow_bypass"}]}`,
			wantErr: "mergeRules.rules[1].users: must be an array of user ids"},
		{raw: `{"type":"rules","rules":[{"rule":"custom","expression":1}]}`,
			wantErr: "mergeRules.rules[0].expression: must be a string of at most 1024 characters"},
		{raw: `{"type":"rules","rules":[{"rule":"custom","expression":"x","message":2}]}`,
			wantErr: "mergeRules.rules[0].message: must be a string"},
	}
	for _, tt := range tests {
		got, err := CheckMergeRules("mergeRules", json.RawMessage(tt.raw), tt.null)
		if errText(err) != tt.wantErr || string(got) != tt.want {
			t.Errorf("CheckMergeRules(%s) = %s, %v; want %s, %q", tt.raw, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestParseRoleOrNull(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v       Optional[string]
		want    Role
		wantErr string
	}{
		{Optional[string]{Set: true, Null: true}, RoleGuest, ""},
		{Optional[string]{Set: true, Value: "edit"}, RoleEdit, ""},
		{Optional[string]{Set: true, Value: "owner"}, RoleGuest, "role: must be one of admin, create, review, edit, comment, read or null"},
		{Optional[string]{Set: true, Value: ""}, RoleGuest, "role: must be one of admin, create, review, edit, comment, read or null"},
	}
	for _, tt := range tests {
		got, err := ParseRoleOrNull("role", tt.v)
		if got != tt.want || errText(err) != tt.wantErr {
			t.Errorf("ParseRoleOrNull(%+v) = %q, %v; want %q, %q", tt.v, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestOrgCreationCheck: anyone passes without asking; members asks whether
// the user is a member somewhere; none, and unknown settings, refuse.
func TestOrgCreationCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		o      OrgCreation
		member bool
		want   string // a part of the refusal, "" when allowed
		asked  bool
	}{
		{OrgCreationAnyone, false, "", false},
		{"", false, "", false},
		{OrgCreationMembers, true, "", true},
		{OrgCreationMembers, false, "only members of an organization, not guests", true},
		{OrgCreationNone, true, "not created through the API", false},
		{"admins", true, "not created through the API", false},
	}
	for _, tt := range tests {
		asked := false
		err := tt.o.Check(func() (bool, error) { asked = true; return tt.member, nil })
		if got := errText(err); (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) || asked != tt.asked {
			t.Errorf("%q (member %t): %q, asked %t; want %q, asked %t", tt.o, tt.member, got, asked, tt.want, tt.asked)
		}
		if err != nil && ErrorCode(err) != CodeForbidden {
			t.Errorf("%q: code %v, want forbidden", tt.o, ErrorCode(err))
		}
	}
	for in, want := range map[string]OrgCreation{"": OrgCreationAnyone, "members": OrgCreationMembers, "none": OrgCreationNone} {
		if got, err := ParseOrgCreation(in); got != want || err != nil {
			t.Errorf("ParseOrgCreation(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseOrgCreation("Anyone"); err == nil {
		t.Error(`ParseOrgCreation("Anyone") is accepted`)
	}
}

func TestRequireOrgAdmin(t *testing.T) {
	for _, role := range []Role{RoleAdmin, RoleCreate, RoleEdit, RoleRead, RoleGuest} {
		err := RequireOrgAdmin(&Member{Role: role})
		if (err == nil) != (role == RoleAdmin) || (err != nil && ErrorCode(err) != CodeForbidden) {
			t.Errorf("%s: %v", role, err)
		}
	}
}
