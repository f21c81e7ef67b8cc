package published

import (
	"testing"

	"github.com/quiredocs/quire/content"
)

// tree is: intro; guide (beta) › install › linux; old (hidden) › notes;
// group › faq (staff), tips (hidden).
func tree() Pages {
	pages := map[string]*content.Page{
		"intro":   {ID: "intro"},
		"guide":   {ID: "guide", Condition: "beta", Children: []string{"install"}},
		"install": {ID: "install", Children: []string{"linux"}},
		"linux":   {ID: "linux"},
		"old":     {ID: "old", Hidden: true, Children: []string{"notes"}},
		"notes":   {ID: "notes"},
		"group":   {ID: "group", Kind: content.KindGroup, Children: []string{"faq", "tips"}},
		"faq":     {ID: "faq", Condition: "staff"},
		"tips":    {ID: "tips", Hidden: true},
	}
	parent := map[string]string{"install": "guide", "linux": "install", "notes": "old", "faq": "group", "tips": "group"}
	return Pages{Tree: &content.Tree{Pages: pages, Root: []string{"intro", "guide", "old", "group"}}, Parent: parent}
}

func TestPages(t *testing.T) {
	tests := []struct {
		id              string
		sees            Sees
		visible, listed bool
	}{
		{"intro", visitor(), true, true},
		{"guide", visitor(), false, false},
		{"linux", visitor(), false, false}, // under a condition not met
		{"linux", visitor("beta"), true, true},
		{"old", visitor(), true, false}, // hidden: served, not listed
		{"notes", visitor(), true, false},
		{"group", visitor(), true, true},
		{"faq", visitor(), false, false},
		{"faq", visitor("staff"), true, true},
		{"tips", visitor("staff"), true, false},
		{"gone", visitor(), false, false},
		{"linux", IgnoreConditions, true, true},
		{"notes", IgnoreConditions, true, false},
	}
	for _, tt := range tests {
		ps := tree()
		ps.Sees = tt.sees
		if got := ps.Visible(tt.id); got != tt.visible {
			t.Errorf("Visible(%s) = %v, want %v", tt.id, got, tt.visible)
		}
		if got := ps.Listed(tt.id); got != tt.listed {
			t.Errorf("Listed(%s) = %v, want %v", tt.id, got, tt.listed)
		}
		// Shows, step by step down from the root, agrees with Listed.
		shown := true
		for _, a := range append(ancestors(ps, tt.id), tt.id) {
			shown = shown && ps.Shows(ps.Tree.Pages[a])
		}
		if shown != tt.listed {
			t.Errorf("Shows down to %s = %v, want %v", tt.id, shown, tt.listed)
		}
		met := true
		for _, a := range append(ancestors(ps, tt.id), tt.id) {
			met = met && ps.Meets(ps.Tree.Pages[a])
		}
		if met != tt.visible {
			t.Errorf("Meets down to %s = %v, want %v", tt.id, met, tt.visible)
		}
	}
}

func ancestors(ps Pages, id string) []string {
	var out []string
	for a := ps.Parent[id]; a != ""; a = ps.Parent[a] {
		out = append([]string{a}, out...)
	}
	return out
}

func TestPagesFirst(t *testing.T) {
	hiddenIntro := tree()
	hiddenIntro.Tree.Pages["intro"].Hidden = true
	onlyGroup := tree()
	onlyGroup.Tree.Root = []string{"group"}
	tests := []struct {
		name string
		ps   Pages
		sees Sees
		want string
	}{
		{"the first page", tree(), visitor(), "intro"},
		{"a hidden page gives way", hiddenIntro, visitor("beta"), "guide"},
		{"nothing listed", hiddenIntro, visitor(), ""},
		{"a group's first child", onlyGroup, visitor("staff"), "faq"},
		{"a group with nothing listed", onlyGroup, visitor(), ""},
		{"no pages", Pages{Tree: &content.Tree{}}, visitor(), ""},
	}
	for _, tt := range tests {
		tt.ps.Sees = tt.sees
		if got := tt.ps.First(); got != tt.want {
			t.Errorf("%s: First() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
