package ask_test

import (
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/ask"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestAskWithoutModel: a question finds the section that holds its words in
// the spaces the viewer reads, linked where the app shows it; the answer
// quotes it; suggested questions come from the titles.
func TestAskWithoutModel(t *testing.T) {
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
		tr.Root = append(tr.Root, "install")
		return tr, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, sp.ID, cr.ID, userID); err != nil {
		t.Fatal(err)
	}
	v, err := db.Viewer(ctx, orgID, userID, nil)
	if err != nil {
		t.Fatal(err)
	}
	a := ask.New(db, revision.New(db, "app.example"), nil, "https://app.example")

	sources, err := a.Sources(ctx, orgID, v, "how do I run the installer?")
	if err != nil {
		t.Fatal(err)
	}
	if len(sources) == 0 || sources[0].PageID != "install" || sources[0].URL != "https://app.example/s/"+sp.ID+"/install#installing" {
		t.Fatalf("Sources = %+v", sources)
	}
	answer, err := a.Answer(ctx, search.Question{Text: "how do I run the installer?"}, sources, nil)
	if err != nil || !strings.Contains(answer.Markdown, "installer") || len(answer.Used) != 1 || a.Cites() {
		t.Errorf("Answer = %+v, %v", answer, err)
	}
	if none, err := a.Sources(ctx, orgID, &quire.Viewer{}, "installer"); err != nil || len(none) != 0 {
		t.Errorf("Sources for who reads nothing = %+v, %v", none, err)
	}
	qs, err := a.Questions(ctx, orgID, v)
	if err != nil || len(qs) == 0 {
		t.Errorf("Questions = %v, %v", qs, err)
	}
}
