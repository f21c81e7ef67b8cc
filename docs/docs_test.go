package docs_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/docs"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
	"github.com/yuin/goldmark/ast"
)

// TestManualRoundTrip: the manual imports into a space through the import
// of a Git-layout folder (as quire demo imports it), and exports back as
// the same bytes; every file of the folder but this package's Go files is
// part of it.
func TestManualRoundTrip(t *testing.T) {
	t.Parallel()
	files, err := docs.Files()
	if err != nil {
		t.Fatal(err)
	}
	onDisk := map[string]bool{}
	err = filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".go") {
			onDisk[filepath.ToSlash(p)] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	embedded := map[string]bool{}
	for p := range files {
		embedded[p] = true
	}
	if diff := cmp.Diff(onDisk, embedded); diff != "" {
		t.Errorf("files of docs/ not embedded (-disk +embedded):\n%s", diff)
	}

	tree, exported := roundTrip(t, files)
	want := map[string]string{}
	for p, data := range files {
		want[p] = string(data)
	}
	if diff := cmp.Diff(want, exported); diff != "" {
		t.Errorf("export of the imported manual (-docs +export):\n%s", diff)
	}
	checkLinks(t, tree)
}

// checkLinks reports every link of the manual's pages that does not open a
// page or file of it, or names a heading its page does not have. Links
// with a scheme (https:, mailto:, user:) lead elsewhere.
func checkLinks(t *testing.T, tree *content.Tree) {
	t.Helper()
	paths := content.GitPaths(tree)
	names := map[string]string{}
	for id, f := range tree.Files {
		names[id] = f.Name
	}
	r := &render.Resolver{Tree: tree, Paths: paths, Files: names}
	checked := 0
	for id, p := range tree.Pages {
		for _, l := range render.Links(p.Markdown) {
			if render.HasScheme(l.Target) || strings.HasPrefix(l.Target, "//") {
				continue
			}
			checked++
			res := r.Resolve(id, l.Target)
			if res.Status != render.StatusOK {
				t.Errorf("%s:%d: link %q is %s", paths[id], l.Line, l.Target, res.Status)
				continue
			}
			target := id
			if res.Kind == render.KindPage {
				target = res.PageID
			} else if res.Kind != render.KindAnchor {
				continue
			}
			if _, fragment, ok := strings.Cut(l.Target, "#"); ok && !headingIDs(tree.Pages[target].Markdown)[fragment] {
				t.Errorf("%s:%d: link %q: %s has no heading #%s", paths[id], l.Line, l.Target, paths[target], fragment)
			}
		}
	}
	if checked < 30 {
		t.Errorf("%d links checked; the manual links its pages more than that", checked)
	}
}

// headingIDs are the ids the published page gives its headings.
func headingIDs(markdown string) map[string]bool {
	doc, _ := render.Parse(markdown)
	ids := map[string]bool{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			switch id, _ := h.AttributeString("id"); id := id.(type) {
			case string:
				ids[id] = true
			case []byte:
				ids[string(id)] = true
			}
		}
		return ast.WalkContinue, nil
	})
	return ids
}

// roundTrip imports files into a new space and exports its revision.
func roundTrip(t *testing.T, files map[string][]byte) (*content.Tree, map[string]string) {
	t.Helper()
	ctx := t.Context()
	db := storetest.Open(t)
	b, err := db.InitIfEmpty(ctx, "Docs", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, b.Organization.ID, store.NewSpace{Title: "Manual"})
	if err != nil {
		t.Fatal(err)
	}
	blobs := blob.Dir{Path: t.TempDir()}
	a := &authoring.Author{DB: db, Blobs: blobs}
	im, err := a.ImportFolder(ctx, sp, nil, b.User.ID, files)
	if err != nil {
		t.Fatal(err)
	}
	_, tree, err := db.RevisionTree(ctx, sp.ID, im.ChangeRequest.RevisionMerged)
	if err != nil {
		t.Fatal(err)
	}
	redirects, err := db.SpaceRedirects(ctx, sp.ID)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	err = gitsync.Export(ctx, tree, redirects, blobs, func(p string, data []byte) error {
		out[p] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree, out
}
