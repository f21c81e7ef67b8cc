package quire

import (
	"encoding/json"
	"testing"
)

func TestEffectiveMergeRules(t *testing.T) {
	for _, tt := range []struct {
		space, org string
		want       int // rules in force; -1 for none
	}{
		{`{"type":"inherit"}`, `{"type":"none"}`, -1},
		{``, ``, -1},
		{`{"type":"inherit"}`, `{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}`, 1},
		{`{"type":"none"}`, `{"type":"rules","rules":[{"rule":"require_at_least_one_review"}]}`, -1},
		{`{"type":"rules","rules":[]}`, `{"type":"none"}`, 0},
		{`{"type":"rules","rules":[{"rule":"custom","expression":"true"},{"rule":"allow_bypass","users":["u"]}]}`, ``, 2},
	} {
		got := EffectiveMergeRules(json.RawMessage(tt.space), json.RawMessage(tt.org))
		if n := len(got.Rules); (got.Rules == nil) != (tt.want == -1) || (got.Rules != nil && n != tt.want) {
			t.Errorf("EffectiveMergeRules(%s, %s) = %+v, want %d rules", tt.space, tt.org, got, tt.want)
		}
	}
}

func TestCheckSpaceMergeRules(t *testing.T) {
	for _, tt := range []struct {
		raw     string
		want    string
		wantErr string
	}{
		{raw: `{"type":"inherit"}`, want: `{"type":"inherit"}`},
		{raw: `{"type":"none"}`, want: `{"type":"none"}`},
		{raw: `{"type":"rules","rules":[{"rule":"require_author_to_merge"}]}`, want: `{"type":"rules","rules":[{"rule":"require_author_to_merge"}]}`},
		{raw: `{"type":"some"}`, wantErr: `mergeRules.type: must be "inherit", "none" or "rules"`},
		{raw: `{"type":"rules","rules":[{"rule":"nope"}]}`, wantErr: "mergeRules.rules[0].rule: must be a known merge rule"},
	} {
		got, err := CheckSpaceMergeRules("mergeRules", json.RawMessage(tt.raw), false)
		if string(got) != tt.want || (err == nil) != (tt.wantErr == "") || (err != nil && err.Error() != tt.wantErr) {
			t.Errorf("CheckSpaceMergeRules(%s) = %s, %v; want %s, %q", tt.raw, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMergeRulesUnmet(t *testing.T) {
	c := &ChangeRequest{Subject: "S", CreatedBy: User{ID: "author"}}
	approved := &Review{Reviewer: User{ID: "vic"}, Status: ReviewApproved}
	rules := MergeRules{Rules: []MergeRule{{Rule: "require_specific_reviewers", Users: []string{"vic", "val"}}, {Rule: "require_author_to_merge"}}}
	got := rules.Unmet(MergeState{ChangeRequest: c, ActorID: "boss", Reviews: []*Review{approved}})
	want := []string{"require_specific_reviewers: needs an approving review from each of the users val",
		"require_author_to_merge: only the change request's author may merge it"}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Unmet = %q, want %q", got, want)
	}
	rules.Rules = append(rules.Rules, MergeRule{Rule: "allow_bypass", Users: []string{"boss"}})
	if got := rules.Unmet(MergeState{ChangeRequest: c, ActorID: "boss"}); got != nil {
		t.Errorf("Unmet with a bypass = %q", got)
	}
}

// TestMergeRulesDescription: require_change_request_description holds
// once the description has more than blanks.
func TestMergeRulesDescription(t *testing.T) {
	rules := MergeRules{Rules: []MergeRule{{Rule: "require_change_request_description"}}}
	for _, tt := range []struct {
		description string
		met         bool
	}{{"", false}, {" \n\t", false}, {"Why: the guide was wrong.\n", true}} {
		got := rules.Unmet(MergeState{ChangeRequest: &ChangeRequest{Description: tt.description}})
		if (got == nil) != tt.met {
			t.Errorf("description %q: Unmet = %q, want met %v", tt.description, got, tt.met)
		}
	}
}
