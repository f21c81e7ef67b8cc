package revision_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// fixture is a store with one space whose current content holds pages.
type fixture struct {
	db     *store.DB
	reader *revision.Reader
	space  *quire.Space
	userID string
}

// newFixture makes a space and merges pages into it: "guides" with child
// "install", and "big", whose document is past render's bounds.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := storetest.Open(t)
	ctx := t.Context()
	boot, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, reader: revision.New(db, "app.example"), space: sp, userID: boot.User.ID}
	f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["guides"] = &content.Page{ID: "guides", Title: "Guides", Slug: "guides", Kind: content.KindDocument,
			Markdown: "See [install](/pages/install) and [gone](nowhere).\n", Children: []string{"install"}}
		tr.Pages["install"] = &content.Page{ID: "install", Title: "Install", Slug: "install", Kind: content.KindDocument,
			Markdown: "Intro.\n\n## Installing\n\nRun the installer. ![logo](logo.png) [back](/pages/guides)\n"}
		tr.Pages["big"] = &content.Page{ID: "big", Title: "Big", Slug: "big", Kind: content.KindDocument,
			Markdown: strings.Repeat("- \n", render.MaxDocumentNodes)}
		tr.Files = map[string]*content.File{"f1": {ID: "f1", Name: "logo.png", ContentType: "image/png", Blob: strings.Repeat("0", 64)}}
		tr.Root = append(tr.Root, "guides", "big")
		return tr, nil
	})
	return f
}

// merge merges an edit into the space's content and reads the space anew.
func (f *fixture) merge(t *testing.T, edit store.EditFunc) {
	t.Helper()
	ctx := t.Context()
	cr, err := f.db.CreateChangeRequest(ctx, f.space.ID, "", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.EditChangeRequest(ctx, f.space.ID, cr.ID, f.userID, edit); err != nil {
		t.Fatal(err)
	}
	if _, err := f.db.MergeChangeRequest(ctx, f.space.ID, cr.ID, f.userID); err != nil {
		t.Fatal(err)
	}
	if f.space, err = f.db.Space(ctx, f.space.ID); err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) open(t *testing.T) *revision.View {
	t.Helper()
	v, err := f.reader.Open(t.Context(), f.space, f.space.RevisionID, nil)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestOpen(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.open(t)
	if v.Revision.ID != f.space.RevisionID || v.Space != f.space || v.ChangeRequest != nil {
		t.Errorf("view of %s/%s, want the space's current revision", v.Space.ID, v.Revision.ID)
	}
	if v.Page("install") == nil || v.Page("nothing") != nil {
		t.Error("Page finds the wrong pages")
	}
	if got := v.Path("install"); got != "guides/install" {
		t.Errorf("Path(install) = %q", got)
	}
	if id, ok := v.PageAt("guides/install.md"); id != "install" || !ok {
		t.Errorf("PageAt(guides/install.md) = %q, %v", id, ok)
	}
	if got := v.Index().Ancestors("install"); !cmp.Equal(got, []string{"guides"}) {
		t.Errorf("Ancestors(install) = %v", got)
	}
	// Views of one tree share what is derived from it.
	if w := f.open(t); w.Index() != v.Index() || w.Resolver() != v.Resolver() {
		t.Error("a second view of the same revision derived its index anew")
	}
	_, err := f.reader.Open(t.Context(), f.space, "no-such-revision", nil)
	if quire.ErrorCode(err) != quire.CodeNotFound {
		t.Errorf("Open of an unknown revision: %v, want not found", err)
	}
}

func TestLinks(t *testing.T) {
	t.Parallel()
	v := newFixture(t).open(t)
	var got []string
	for _, l := range v.Links() {
		got = append(got, l.Key+" "+strings.Join(l.From, ","))
	}
	want := []string{"page:install guides", "page:nowhere guides", "file:f1 install", "page:guides install"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Links (-want +got):\n%s", diff)
	}
	if len(v.PageLinks("install")) != 2 {
		t.Errorf("PageLinks(install) = %v", v.PageLinks("install"))
	}
	if got := v.FileBacklinks("f1"); !cmp.Equal(got, []string{"install"}) {
		t.Errorf("FileBacklinks(f1) = %v", got)
	}
}

func TestDocument(t *testing.T) {
	t.Parallel()
	v := newFixture(t).open(t)
	doc, err := v.Document("guides")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), `"page":"install"`) {
		t.Errorf("document of guides does not resolve its link to install: %s", doc)
	}
	again, _ := v.Document("guides")
	if &again[0] != &doc[0] {
		t.Error("the document was not cached")
	}
	for range 2 { // remembered too large
		if _, err := v.Document("big"); !errors.Is(err, render.ErrDocumentTooLarge) {
			t.Errorf("Document(big): %v, want ErrDocumentTooLarge", err)
		}
	}
	calls := 0
	finish := func(d map[string]any) { calls++; d["finished"] = true }
	c1 := v.CommentDocument("install", "a [link](/pages/guides)", finish)
	c2 := v.CommentDocument("install", "a [link](/pages/guides)", finish)
	if calls != 1 || string(c1) != string(c2) || !strings.Contains(string(c1), `"finished":true`) {
		t.Errorf("comment document built %d times: %s", calls, c1)
	}
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	v := f.reader.Empty(f.space, "r1")
	if v.Revision.ID != "r1" || len(v.Tree.Pages) != 0 || len(v.Index().Path) != 0 || len(v.Links()) != 0 {
		t.Errorf("Empty: %+v", v)
	}
}

func TestSearchAndSources(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	v := f.open(t)
	ranked, err := v.Search(ctx, search.Terms("installer"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ranked) == 0 || ranked[0].PageID != "install" || len(ranked[0].Hits) != 2 {
		t.Fatalf("Search(installer) = %+v, want install first, both its sections", ranked)
	}
	secs := f.reader.Sections(v.Page("install"))
	if len(secs) != 2 || secs[1].ID != "installing" || !slices.Contains(secs[1].Words, "installer") {
		t.Errorf("Sections(install) = %+v", secs)
	}
	if again := f.reader.Sections(v.Page("install")); &again[0] != &secs[0] {
		t.Error("the sections were not cached")
	}
	found, err := f.reader.Sources(ctx, []*quire.Space{f.space}, "how do I run the installer?", revision.SourceLimits{Hits: 50, Sources: 5, PerPage: 1})
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, s := range found {
		pages = append(pages, s.Page.ID)
	}
	if len(found) == 0 || pages[0] != "install" || found[0].Section != secs[1].Section || found[0].View.Revision.ID != f.space.RevisionID {
		t.Fatalf("Sources of pages %v: %+v, want the installing section of install first", pages, found)
	}
	if len(pages) != len(slices.Compact(slices.Sorted(slices.Values(pages)))) {
		t.Errorf("Sources of pages %v, want each once", pages)
	}
	// A page removed since the view was read is no result of it.
	f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["guides"].Children = nil
		delete(tr.Pages, "install")
		return tr, nil
	})
	if ranked, err = f.open(t).Search(ctx, search.Terms("installer")); err != nil {
		t.Fatal(err)
	}
	for _, p := range ranked {
		if p.PageID == "install" {
			t.Errorf("Search after removing install = %+v", ranked)
		}
	}
}

// TestTitles: titles and headings of the spaces in order, up to n, under a
// key that holds while their content does and changes with it.
func TestTitles(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	other, err := f.db.CreateSpace(t.Context(), f.space.OrgID, store.NewSpace{Title: "Empty"})
	if err != nil {
		t.Fatal(err)
	}
	spaces := []*quire.Space{f.space, other}
	titles, key, err := f.reader.Titles(t.Context(), spaces, 200)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Guides", "Install", "Installing", "Big"}; !cmp.Equal(titles, want) {
		t.Errorf("titles %q, want %q", titles, want)
	}
	if again, key2, _ := f.reader.Titles(t.Context(), spaces, 200); key2 != key || !cmp.Equal(again, titles) {
		t.Errorf("read twice: %q under %s, then %q under %s", titles, key, again, key2)
	}
	if few, _, _ := f.reader.Titles(t.Context(), spaces, 2); !cmp.Equal(few, []string{"Guides", "Install"}) {
		t.Errorf("two titles: %q", few)
	}
	f.merge(t, func(_ time.Time, tr *content.Tree) (*content.Tree, error) {
		tr.Pages["guides"].Title = "Handbook"
		return tr, nil
	})
	spaces[0] = f.space
	titles, key2, err := f.reader.Titles(t.Context(), spaces, 200)
	if err != nil || key2 == key || titles[0] != "Handbook" {
		t.Errorf("after an edit: %q under %s (was %s), %v", titles, key2, key, err)
	}
}
