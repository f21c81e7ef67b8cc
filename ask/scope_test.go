package ask_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestScopeSources: sources found in the spaces of a scope, among the pages
// it keeps, linked where the scope says.
func TestScopeSources(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	orgID, userID := boot.Organization.ID, boot.User.ID
	sp, err := db.CreateSpace(ctx, orgID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := db.CreateChangeRequest(ctx, sp.ID, "", userID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, sp.ID, cr.ID, userID, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["install"] = &content.Page{ID: "install", Title: "Install", Slug: "install", Kind: content.KindDocument,
			Markdown: "Intro.\n\n## Installing\n\nRun the installer to set up the server.\n"}
		tr.Pages["server"] = &content.Page{ID: "server", Title: "Server", Slug: "server", Kind: content.KindDocument,
			Markdown: "The installer sets up the server.\n"}
		tr.Root = append(tr.Root, "install", "server")
		return tr, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, sp.ID, cr.ID, userID); err != nil {
		t.Fatal(err)
	}
	if sp, err = db.Space(ctx, sp.ID); err != nil {
		t.Fatal(err)
	}
	a := ask.New(db, revision.New(db, ""), nil, "")
	notInstall := func(_ *revision.View, id string) bool { return id != "install" }
	at := func(v *revision.View, pageID, sectionID string) string {
		return "/site/" + v.Path(pageID) + "#" + sectionID
	}
	tests := []struct {
		name  string
		scope ask.Scope
		want  []string // page, section and URL of each source
	}{
		{"every page, no URL", ask.Scope{Spaces: []*quire.Space{sp}}, []string{"install installing ", "install  ", "server  "}}, // at most two of a page
		{"pages kept out", ask.Scope{Spaces: []*quire.Space{sp}, Keep: notInstall}, []string{"server  "}},
		{"linked", ask.Scope{Spaces: []*quire.Space{sp}, Keep: notInstall, URL: at}, []string{"server  /site/server#"}},
		{"no spaces", ask.Scope{}, nil},
	}
	for _, tt := range tests {
		sources, err := a.ScopeSources(ctx, tt.scope, "how do I run the installer?")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range sources {
			if s.SpaceID != sp.ID || s.RevisionID != sp.RevisionID || s.PageTitle == "" {
				t.Errorf("%s: source %+v", tt.name, s)
			}
			got = append(got, s.PageID+" "+s.Section.ID+" "+s.URL)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: ScopeSources (-want +got):\n%s", tt.name, diff)
		}
	}
	// Questions suggested from the scope's spaces; none from no space.
	for _, tt := range []struct {
		name  string
		scope ask.Scope
		none  bool
	}{{"the space", ask.Scope{Spaces: []*quire.Space{sp}}, false}, {"no spaces", ask.Scope{}, true}} {
		qs, err := a.ScopeQuestions(ctx, tt.scope)
		if err != nil {
			t.Fatal(err)
		}
		if (len(qs) == 0) != tt.none {
			t.Errorf("%s: ScopeQuestions = %q", tt.name, qs)
		}
	}
}
