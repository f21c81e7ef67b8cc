package authoring_test

import (
	"database/sql"
	"encoding/base64"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// fixture is a store with a space, an author over it and a raw connection
// to the same database, to count rows and refuse writes.
type fixture struct {
	db     *store.DB
	raw    *sql.DB
	pg     bool
	blobs  string
	author *authoring.Author
	space  *quire.Space
	userID string
	user   *quire.User
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	url, dir := storetest.URL(t), t.TempDir()
	db, err := store.Open(t.Context(), url, dir)
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	driver, dsn := "pgx", url
	if url == "" {
		driver, dsn = "sqlite", "file:"+filepath.Join(dir, "quire.db")+"?_pragma=busy_timeout(10000)"
	}
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatalf("open raw database: %v", err)
	}
	t.Cleanup(func() { raw.Close() })
	boot, err := db.InitOrganization(t.Context(), "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(t.Context(), boot.Organization.ID, store.NewSpace{Title: "Docs"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{db: db, raw: raw, pg: url != "", blobs: t.TempDir(), space: sp, userID: boot.User.ID, user: boot.User}
	f.author = &authoring.Author{DB: db, Blobs: blob.Dir{Path: f.blobs}, Fetcher: outbound.Fetcher{AllowPrivate: true}}
	return f
}

// refuse makes the database refuse updates of change requests that match
// when (SQL on NEW and OLD), until the test ends.
func (f *fixture) refuse(t *testing.T, name, when string) {
	t.Helper()
	stmts := []string{fmt.Sprintf(`CREATE TRIGGER %s BEFORE UPDATE ON change_requests FOR EACH ROW WHEN %s
		BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`, name, when)}
	if f.pg {
		stmts = []string{
			fmt.Sprintf(`CREATE FUNCTION %s() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`, name),
			fmt.Sprintf(`CREATE TRIGGER %s BEFORE UPDATE ON change_requests FOR EACH ROW WHEN (%s) EXECUTE FUNCTION %s()`, name, when, name),
		}
	}
	for _, s := range stmts {
		if _, err := f.raw.ExecContext(t.Context(), s); err != nil {
			t.Fatalf("refuse: %v", err)
		}
	}
}

// counts are the rows of what a write leaves behind, and the files.
type counts struct{ ChangeRequests, Revisions, Objects, Blobs int }

func (f *fixture) counts(t *testing.T) counts {
	t.Helper()
	var c counts
	for table, n := range map[string]*int{"change_requests": &c.ChangeRequests, "revisions": &c.Revisions, "objects": &c.Objects} {
		if err := f.raw.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM "+table).Scan(n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
	}
	filepath.WalkDir(f.blobs, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			c.Blobs++
		}
		return err
	})
	return c
}

// website serves a home page that links to a guide.
func website(t *testing.T) string {
	t.Helper()
	pages := map[string]string{
		"/docs/":      `<html><body><main><h1>Home</h1><p>Read <a href="guide">the guide</a>.</p></main></body></html>`,
		"/docs/guide": `<html><body><main><h1>Guide</h1><p>Steps.</p></main></body></html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/docs/"
}

// TestImportIntoSpaceAllOrNothing: an import into a space whose merge, its
// last step, fails leaves nothing behind: no change request, no revision,
// no object, no file, and the space as it was. Once merges go through, the
// same import creates one merged request.
func TestImportIntoSpaceAllOrNothing(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	start := website(t)
	before := f.counts(t)
	f.refuse(t, "refuse_merge", "NEW.status = 'merged'")

	if _, err := f.author.ImportIntoSpace(t.Context(), f.space, start, authoring.Actor{User: f.user}); err == nil || !strings.Contains(err.Error(), "refused by the test") {
		t.Fatalf("import with its merge refused: %v", err)
	}
	if after := f.counts(t); after != before {
		t.Errorf("a failed import left %+v behind, before %+v", after, before)
	}
	sp, err := f.db.Space(t.Context(), f.space.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sp.RevisionID != f.space.RevisionID {
		t.Errorf("the space moved to %s from %s", sp.RevisionID, f.space.RevisionID)
	}

	if _, err := f.raw.ExecContext(t.Context(), "DROP TRIGGER refuse_merge"+map[bool]string{true: " ON change_requests"}[f.pg]); err != nil {
		t.Fatal(err)
	}
	im, err := f.author.ImportIntoSpace(t.Context(), f.space, start, authoring.Actor{User: f.user})
	if err != nil {
		t.Fatal(err)
	}
	if im.ChangeRequest.Status != quire.StatusMerged || im.ChangeRequest.Number != 1 || im.Imported != 2 || im.Found != 2 {
		t.Errorf("import %+v, request %+v", im, im.ChangeRequest)
	}
	if after := f.counts(t); after.ChangeRequests != 1 || after.Revisions != before.Revisions+2 {
		t.Errorf("after an import %+v, before %+v", after, before)
	}
}

// TestApplyFilesOnlyWithRevision: a batch with a file whose revision is
// refused, the last write of its transaction, stores no file and no
// revision.
func TestApplyFilesOnlyWithRevision(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c, err := f.db.CreateChangeRequest(t.Context(), f.space.ID, "", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := edit.Parse(fmt.Appendf(nil, `{"changes":[{"operation":"insert_files","files":[{"name":"a.txt","contentType":"text/plain","base64":%q}]}]}`,
		base64.StdEncoding.EncodeToString([]byte("file bytes"))))
	if err != nil {
		t.Fatal(err)
	}
	before := f.counts(t)
	f.refuse(t, "refuse_revision", "NEW.revision_id <> OLD.revision_id")
	if _, _, err := f.author.Apply(t.Context(), f.space, c, f.userID, changes); err == nil || !strings.Contains(err.Error(), "refused by the test") {
		t.Fatalf("batch with its revision refused: %v", err)
	}
	if after := f.counts(t); after != before {
		t.Errorf("a failed batch left %+v behind, before %+v", after, before)
	}
}

// ApplyAt applies a batch only on the revision its writer based it on, and
// a refused batch writes nothing.
func TestApplyAtRefusesNewerHead(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := t.Context()
	c, err := f.db.CreateChangeRequest(ctx, f.space.ID, "", f.userID)
	if err != nil {
		t.Fatal(err)
	}
	batch := func(title string) []edit.Change {
		changes, err := edit.Parse([]byte(`{"changes":[{"operation":"insert_page","title":"` + title + `","document":{"markdown":"x"}}]}`))
		if err != nil {
			t.Fatal(err)
		}
		return changes
	}
	base := c.RevisionID
	c2, _, err := f.author.ApplyAt(ctx, f.space, c, f.userID, base, batch("One"))
	if err != nil {
		t.Fatalf("apply at the head: %v", err)
	}
	before := f.counts(t)
	if _, _, err := f.author.ApplyAt(ctx, f.space, c2, f.userID, base, batch("Two")); quire.ErrorCode(err) != quire.CodeConflict {
		t.Fatalf("apply at an old head: %v, want a conflict", err)
	}
	if after := f.counts(t); after != before {
		t.Errorf("a refused batch wrote: %+v, then %+v", before, after)
	}
	if _, _, err := f.author.ApplyAt(ctx, f.space, c2, f.userID, c2.RevisionID, batch("Two")); err != nil {
		t.Fatalf("apply at the new head: %v", err)
	}
}
