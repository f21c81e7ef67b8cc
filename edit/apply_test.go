package edit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
)

// now is the Options.Now of every test batch.
const now int64 = 1_700_000_000_000_000

// M is one change (or any JSON object) of a test batch.
type M = map[string]any

// batch is the JSON body {"changes": [...]}.
func batch(changes ...M) string {
	b, err := json.Marshal(M{"changes": changes})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// fixture is a small CR tree:
//
//	home        (README.md)
//	guides      (guides/README.md)
//	  install   (guides/install.md)
//	  config    (guides/config.md)
//	api         group
//	  reference (api/reference.md)
//
// and one file, diagram.png.
func fixture() *content.Tree {
	page := func(id, title, slug string, kids ...string) *content.Page {
		return &content.Page{ID: id, Title: title, Slug: slug, Kind: content.KindDocument,
			Markdown: title + " body.\n", Children: kids, CreatedAt: 1, UpdatedAt: 2}
	}
	t := &content.Tree{Pages: map[string]*content.Page{}, Root: []string{"p-home", "p-guides", "p-api"},
		Files: map[string]*content.File{"f-diagram": {ID: "f-diagram", Name: "diagram.png", ContentType: "image/png", Size: 3, Blob: content.Hash("png")}}}
	for _, p := range []*content.Page{
		page("p-home", "Home", "home"),
		page("p-guides", "Guides", "guides", "p-install", "p-config"),
		page("p-install", "Install", "install"),
		page("p-config", "Config", "config"),
		page("p-api", "API", "api", "p-reference"),
		page("p-reference", "Reference", "reference"),
	} {
		t.Pages[p.ID] = p
	}
	t.Pages["p-api"].Kind = content.KindGroup
	t.Pages["p-api"].Markdown = ""
	return t
}

// counter returns a NewID giving n1, n2, …
func counter() func() string {
	n := 0
	return func() string {
		n++
		return fmt.Sprintf("n%d", n)
	}
}

// store does what the API does before Apply: it stores each file's bytes
// (URL sources are "fetched" as the URL's text) and fills FileInput.File.
func store(changes []Change) {
	for i := range changes {
		for j := range changes[i].Files {
			in := &changes[i].Files[j]
			data := in.Data
			if in.URL != "" {
				data = []byte(in.URL)
			}
			ct := in.ContentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			in.File = &FileInfo{Blob: content.Hash(string(data)), Size: int64(len(data)), ContentType: ct}
		}
	}
}

func options() Options {
	return Options{Now: now, NewID: counter(), Base: fixture(), AppHost: "docs.example.com"}
}

// run parses body, which must parse, and applies it to tree.
func run(t *testing.T, tree *content.Tree, body string, o Options) (*Result, error) {
	t.Helper()
	changes, err := Parse([]byte(body))
	if err != nil {
		t.Fatalf("Parse(%s): %v", body, err)
	}
	store(changes)
	return Apply(tree, changes, o)
}

// mustApply applies body to the fixture and checks the result is sound.
func mustApply(t *testing.T, body string) (*content.Tree, *Result) {
	t.Helper()
	tree := fixture()
	res, err := run(t, tree, body, options())
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	checkTree(t, res.Tree)
	return tree, res
}

// applyErr applies body to the fixture and wants an invalid error whose
// message starts with prefix and contains each of subs.
func applyErr(t *testing.T, body, prefix string, subs ...string) {
	t.Helper()
	res, err := run(t, fixture(), body, options())
	if err == nil {
		t.Fatalf("Apply succeeded (%+v), want an error starting %q", res.Changes, prefix)
	}
	checkErr(t, err, prefix, subs...)
}

func checkErr(t *testing.T, err error, prefix string, subs ...string) {
	t.Helper()
	if got := quire.ErrorCode(err); got != quire.CodeInvalid {
		t.Errorf("error code = %q, want %q (%v)", got, quire.CodeInvalid, err)
	}
	msg := quire.ErrorMessage(err)
	if !strings.HasPrefix(msg, prefix) {
		t.Errorf("error = %q, want it to start with %q", msg, prefix)
	}
	for _, s := range subs {
		if !strings.Contains(msg, s) {
			t.Errorf("error = %q, want it to contain %q", msg, s)
		}
	}
}

// checkTree checks that tree is valid and that no two siblings share a slug.
func checkTree(t testing.TB, tree *content.Tree) {
	t.Helper()
	if err := treeProblem(tree); err != nil {
		t.Fatalf("bad tree: %v", err)
	}
}

func treeProblem(tree *content.Tree) error {
	if err := tree.Validate(); err != nil {
		return err
	}
	check := func(where string, ids []string) error {
		seen := map[string]string{}
		for _, id := range ids {
			s := tree.Pages[id].Slug
			if other, dup := seen[s]; dup {
				return fmt.Errorf("%s: pages %q and %q both have slug %q", where, other, id, s)
			}
			seen[s] = id
		}
		return nil
	}
	if err := check("root", tree.Root); err != nil {
		return err
	}
	for id, p := range tree.Pages {
		if err := check(id, p.Children); err != nil {
			return err
		}
	}
	return nil
}

func wantOrder(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func wantOutcomes(t *testing.T, got []Outcome, want ...Outcome) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("outcomes =\n  %+v\nwant\n  %+v", got, want)
	}
}

func md(s string) M { return M{"markdown": s} }

func TestInsertAtRoot(t *testing.T) {
	tree, res := mustApply(t, batch(M{"operation": "insert_page", "title": "New page", "document": md("Hello.\n")}))
	wantOrder(t, "root", tree.Root, "p-home", "p-guides", "p-api", "n1")
	p := tree.Pages["n1"]
	if p == nil {
		t.Fatal("page n1 not created")
	}
	want := content.Page{ID: "n1", Title: "New page", Slug: "new-page", Kind: content.KindDocument, Markdown: "Hello.\n",
		CreatedAt: now, UpdatedAt: now}
	if p.ID != want.ID || p.Title != want.Title || p.Slug != want.Slug || p.Kind != want.Kind ||
		p.Markdown != want.Markdown || p.CreatedAt != now || p.UpdatedAt != now || len(p.Children) != 0 {
		t.Errorf("page = %+v, want %+v", *p, want)
	}
	wantOutcomes(t, res.Changes, Outcome{Kind: CreatedPage, PageID: "n1"})
	if len(res.Files) != 0 {
		t.Errorf("files = %v, want none", res.Files)
	}
}

func TestInsertPlacement(t *testing.T) {
	ins := func(title string, extra M) M {
		c := M{"operation": "insert_page", "title": title, "document": M{}}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	t.Run("at root index", func(t *testing.T) {
		tree, _ := mustApply(t, batch(ins("A", M{"at": 0}), ins("B", M{"at": 0}), ins("C", M{"at": 2}), ins("D", M{"at": 6})))
		wantOrder(t, "root", tree.Root, "n2", "n1", "n3", "p-home", "p-guides", "p-api", "n4")
	})
	t.Run("into a page", func(t *testing.T) {
		tree, _ := mustApply(t, batch(ins("A", M{"into": "p-guides"}), ins("B", M{"into": "p-guides", "at": 0}),
			ins("C", M{"into": "p-guides", "at": 2})))
		wantOrder(t, "guides", tree.Pages["p-guides"].Children, "n2", "p-install", "n3", "p-config", "n1")
		wantOrder(t, "root", tree.Root, "p-home", "p-guides", "p-api")
	})
	t.Run("into a group and a leaf", func(t *testing.T) {
		tree, _ := mustApply(t, batch(ins("A", M{"into": "p-api"}), ins("B", M{"into": "p-install"})))
		wantOrder(t, "api", tree.Pages["p-api"].Children, "p-reference", "n1")
		wantOrder(t, "install", tree.Pages["p-install"].Children, "n2")
	})
	t.Run("into a page of the batch by ref", func(t *testing.T) {
		tree, res := mustApply(t, batch(ins("Parent", M{"ref": "parent"}), ins("Child", M{"into": "parent"}),
			ins("First", M{"into": "parent", "at": 0})))
		wantOrder(t, "parent", tree.Pages["n1"].Children, "n3", "n2")
		wantOutcomes(t, res.Changes, Outcome{CreatedPage, "n1", "parent"}, Outcome{CreatedPage, "n2", ""}, Outcome{CreatedPage, "n3", ""})
	})
	t.Run("into a ref inserted later", func(t *testing.T) {
		applyErr(t, batch(ins("Child", M{"into": "later"}), ins("Later", M{"ref": "later"})),
			"changes[0].into: ", `no page "later"`)
	})
	t.Run("into a missing page", func(t *testing.T) {
		applyErr(t, batch(ins("A", nil), ins("B", M{"into": "nope"})), "changes[1].into: ", `no page "nope"`)
	})
	t.Run("at past the end", func(t *testing.T) {
		applyErr(t, batch(ins("A", M{"into": "p-guides", "at": 3})), "changes[0].at: ", "past the end")
		applyErr(t, batch(ins("A", M{"at": 4})), "changes[0].at: ", "past the end")
	})
}

func TestTitlePrecedence(t *testing.T) {
	for _, tc := range []struct {
		name      string
		change    M
		title     string
		slug      string
		body      string
		emoji     string
		desc      string
		hidden    bool
		noIndex   bool
		noRobots  bool
		icon      string
		condition string
	}{
		{name: "front matter over heading and field",
			change: M{"title": "Field", "document": md("---\ntitle: From front matter\n---\n# Heading\n\nText.\n")},
			title:  "From front matter", slug: "from-front-matter", body: "# Heading\n\nText.\n"},
		{name: "heading over field",
			change: M{"title": "Field", "document": md("# The Heading\n\nText.\n")},
			title:  "The Heading", slug: "the-heading", body: "Text.\n"},
		{name: "setext heading",
			change: M{"document": md("\n\nSetext *title*\n===\n\nText.\n\n\n")},
			title:  "Setext title", slug: "setext-title", body: "Text.\n"},
		{name: "level-2 heading is not a title",
			change: M{"title": "Field", "document": md("## Section\n\nText.\n")},
			title:  "Field", slug: "field", body: "## Section\n\nText.\n"},
		{name: "field alone",
			change: M{"title": "Just the field", "document": md("Text.")},
			title:  "Just the field", slug: "just-the-field", body: "Text.\n"},
		{name: "untitled",
			change: M{"document": md("Text.\n")},
			title:  "Untitled", slug: "untitled", body: "Text.\n"},
		{name: "empty document",
			change: M{"document": M{}},
			title:  "Untitled", slug: "untitled", body: ""},
		{name: "front matter without title: heading still wins",
			change: M{"title": "Field", "document": md("---\ndescription: d\n---\n# H\n")},
			title:  "H", slug: "h", body: "", desc: "d"},
		{name: "front matter metadata over fields",
			change: M{"title": "T", "emoji": "🐛", "icon": "gear", "description": "field", "condition": "visitor.x", "hidden": false, "noIndex": true,
				"document": md("---\ndescription: fm\nemoji: \"🎉\"\nhidden: true\nnoRobotsIndex: true\nother: ignored\n---\nBody\n")},
			title: "T", slug: "t", body: "Body\n", emoji: "🎉", desc: "fm", icon: "gear", condition: "visitor.x",
			hidden: true, noIndex: true, noRobots: true},
		{name: "explicit slug kept",
			change: M{"slug": "custom", "document": md("# Some Title\n")},
			title:  "Some Title", slug: "custom", body: ""},
		{name: "slug from punctuation and unicode",
			change: M{"title": "  Hello, Wörld! 2.0 ", "document": M{}},
			title:  "  Hello, Wörld! 2.0 ", slug: "hello-wörld-2-0", body: ""},
		{name: "slug of a title without letters",
			change: M{"title": "!!!", "document": M{}},
			title:  "!!!", slug: "page", body: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := M{"operation": "insert_page"}
			for k, v := range tc.change {
				c[k] = v
			}
			tree, _ := mustApply(t, batch(c))
			p := tree.Pages["n1"]
			if p.Title != tc.title || p.Slug != tc.slug || p.Markdown != tc.body {
				t.Errorf("title, slug, body = %q, %q, %q; want %q, %q, %q", p.Title, p.Slug, p.Markdown, tc.title, tc.slug, tc.body)
			}
			if p.Emoji != tc.emoji || p.Description != tc.desc || p.Icon != tc.icon || p.Condition != tc.condition {
				t.Errorf("emoji, description, icon, condition = %q, %q, %q, %q; want %q, %q, %q, %q",
					p.Emoji, p.Description, p.Icon, p.Condition, tc.emoji, tc.desc, tc.icon, tc.condition)
			}
			if p.Hidden != tc.hidden || p.NoIndex != tc.noIndex || p.NoRobotsIndex != tc.noRobots {
				t.Errorf("hidden, noIndex, noRobotsIndex = %v, %v, %v; want %v, %v, %v",
					p.Hidden, p.NoIndex, p.NoRobotsIndex, tc.hidden, tc.noIndex, tc.noRobots)
			}
		})
	}
}

func TestDocumentErrors(t *testing.T) {
	applyErr(t, batch(M{"operation": "insert_page", "document": md("---\ntitle: [unclosed\n---\nx\n")}),
		"changes[0].document: ", "front matter")
	applyErr(t, batch(M{"operation": "insert_page", "document": md("---\nhidden: maybe\n---\nx\n")}),
		"changes[0].document: ", "hidden")
	applyErr(t, batch(M{"operation": "insert_page", "document": md("# " + strings.Repeat("x", MaxTitle+1) + "\n")}),
		"changes[0].document: ", "longer than")
	applyErr(t, batch(M{"operation": "update_page", "page": "p-api", "document": md("x")}),
		"changes[0].document: ", `"p-api" is a group`)
}

func TestDerivedSlugs(t *testing.T) {
	ins := func(title string, extra M) M {
		c := M{"operation": "insert_page", "title": title, "document": M{}}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	tree, _ := mustApply(t, batch(ins("Setup", nil), ins("Setup", nil), ins("SETUP!", nil),
		ins("Install", M{"into": "p-guides"}), ins("Home", nil), ins("Install", nil),
		ins("Guides", M{"into": "p-guides"})))
	var slugs []string
	for _, id := range []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7"} {
		slugs = append(slugs, tree.Pages[id].Slug)
	}
	wantOrder(t, "slugs", slugs, "setup", "setup-2", "setup-3", "install-2", "home-2", "install", "guides")
	if tree.Pages["p-install"].Slug != "install" || tree.Pages["p-home"].Slug != "home" {
		t.Error("existing slugs changed")
	}

	t.Run("long titles keep the slug short", func(t *testing.T) {
		long := strings.Repeat("é", MaxSlug)
		tree, _ := mustApply(t, batch(ins(long, nil), ins(long, nil)))
		a, b := tree.Pages["n1"].Slug, tree.Pages["n2"].Slug
		if len(a) > MaxSlug || len(b) > MaxSlug || a == b || !strings.HasSuffix(b, "-2") {
			t.Errorf("slugs %q (%d bytes) and %q (%d bytes)", a, len(a), b, len(b))
		}
		if err := quire.CheckSlug(a); err != nil {
			t.Errorf("derived slug %q: %v", a, err)
		}
		if err := quire.CheckSlug(b); err != nil {
			t.Errorf("derived slug %q: %v", b, err)
		}
	})
}

func TestExplicitSlugs(t *testing.T) {
	ins := func(slug string, extra M) M {
		c := M{"operation": "insert_page", "slug": slug, "document": M{}}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	applyErr(t, batch(ins("guides", nil)), "changes[0].slug: ", `"guides" is already the slug of page "p-guides"`)
	applyErr(t, batch(ins("install", M{"into": "p-guides"})), "changes[0].slug: ", `"install"`)
	applyErr(t, batch(ins("x", nil), ins("x", nil)), "changes[1].slug: ", `"x" is already the slug of page "n1"`)
	// A derived slug is taken by the explicit one of a later insert.
	applyErr(t, batch(M{"operation": "insert_page", "title": "Dup", "document": M{}}, ins("dup", nil)), "changes[1].slug: ")
	applyErr(t, batch(M{"operation": "update_page", "page": "p-config", "slug": "install"}),
		"changes[0].slug: ", `"install" is already the slug of page "p-install"`)

	// The same slug under another parent is fine, and so is a page's own.
	tree, _ := mustApply(t, batch(ins("install", nil),
		M{"operation": "update_page", "page": "p-install", "slug": "install"},
		M{"operation": "update_page", "page": "p-home", "slug": ""}))
	if tree.Pages["n1"].Slug != "install" || tree.Pages["p-install"].Slug != "install" || tree.Pages["p-home"].Slug != "" {
		t.Errorf("slugs = %q, %q, %q", tree.Pages["n1"].Slug, tree.Pages["p-install"].Slug, tree.Pages["p-home"].Slug)
	}
}

func TestUpdatePage(t *testing.T) {
	t.Run("title only keeps the slug", func(t *testing.T) {
		tree, res := mustApply(t, batch(M{"operation": "update_page", "page": "p-install", "title": "Installation"}))
		p := tree.Pages["p-install"]
		if p.Title != "Installation" || p.Slug != "install" || p.Markdown != "Install body.\n" {
			t.Errorf("page = %+v", *p)
		}
		if p.CreatedAt != 1 || p.UpdatedAt != now {
			t.Errorf("timestamps = %d, %d; want 1, %d", p.CreatedAt, p.UpdatedAt, now)
		}
		wantOutcomes(t, res.Changes, Outcome{Kind: UpdatedPage, PageID: "p-install"})
	})
	t.Run("slug only keeps the title", func(t *testing.T) {
		tree, _ := mustApply(t, batch(M{"operation": "update_page", "page": "p-install", "slug": "setup"}))
		if p := tree.Pages["p-install"]; p.Title != "Install" || p.Slug != "setup" {
			t.Errorf("page = %+v", *p)
		}
	})
	t.Run("metadata", func(t *testing.T) {
		tree := fixture()
		tree.Pages["p-config"].Emoji = "🎉"
		tree.Pages["p-config"].Condition = "old"
		res, err := run(t, tree, batch(M{"operation": "update_page", "page": "p-config", "emoji": "", "icon": "gear",
			"description": "About config", "condition": "", "hidden": true, "noIndex": true, "noRobotsIndex": true}), options())
		if err != nil {
			t.Fatal(err)
		}
		p := res.Tree.Pages["p-config"]
		if p.Emoji != "" || p.Icon != "gear" || p.Description != "About config" || p.Condition != "" ||
			!p.Hidden || !p.NoIndex || !p.NoRobotsIndex || p.Title != "Config" || p.Markdown != "Config body.\n" {
			t.Errorf("page = %+v", *p)
		}
	})
	t.Run("document", func(t *testing.T) {
		tree, _ := mustApply(t, batch(M{"operation": "update_page", "page": "p-config", "title": "Ignored",
			"document": md("---\ndescription: From doc\n---\n# Configuration\n\nNew *body*.\n")}))
		p := tree.Pages["p-config"]
		if p.Title != "Configuration" || p.Description != "From doc" || p.Markdown != "New *body*.\n" || p.Slug != "config" {
			t.Errorf("page = %+v", *p)
		}
	})
	t.Run("document without a title keeps the title", func(t *testing.T) {
		tree, _ := mustApply(t, batch(M{"operation": "update_page", "page": "p-config", "document": M{}}))
		if p := tree.Pages["p-config"]; p.Title != "Config" || p.Markdown != "" {
			t.Errorf("page = %+v", *p)
		}
	})
	t.Run("a page of the batch by ref", func(t *testing.T) {
		tree, res := mustApply(t, batch(M{"operation": "insert_page", "ref": "new", "document": M{}},
			M{"operation": "update_page", "page": "new", "title": "Renamed"}))
		if p := tree.Pages["n1"]; p.Title != "Renamed" || p.Slug != "untitled" {
			t.Errorf("page = %+v", *p)
		}
		wantOutcomes(t, res.Changes, Outcome{CreatedPage, "n1", "new"})
	})
	t.Run("missing page", func(t *testing.T) {
		applyErr(t, batch(M{"operation": "update_page", "page": "nope", "title": "x"}), "changes[0].page: ", `no page "nope"`)
	})
}

func TestMove(t *testing.T) {
	up := func(page string, extra M) M {
		c := M{"operation": "update_page", "page": page}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	t.Run("into a page", func(t *testing.T) {
		tree, res := mustApply(t, batch(up("p-install", M{"into": "p-api"})))
		wantOrder(t, "guides", tree.Pages["p-guides"].Children, "p-config")
		wantOrder(t, "api", tree.Pages["p-api"].Children, "p-reference", "p-install")
		if tree.Pages["p-install"].UpdatedAt != now {
			t.Error("UpdatedAt not set on move")
		}
		wantOutcomes(t, res.Changes, Outcome{Kind: UpdatedPage, PageID: "p-install"})
	})
	t.Run("into a page at an index", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-install", M{"into": "p-api", "at": 0})))
		wantOrder(t, "api", tree.Pages["p-api"].Children, "p-install", "p-reference")
	})
	t.Run("to the root", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-config", M{"into": nil})))
		wantOrder(t, "root", tree.Root, "p-home", "p-guides", "p-api", "p-config")
		wantOrder(t, "guides", tree.Pages["p-guides"].Children, "p-install")
	})
	t.Run("to the root at an index", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-config", M{"into": nil, "at": 1})))
		wantOrder(t, "root", tree.Root, "p-home", "p-config", "p-guides", "p-api")
	})
	t.Run("at alone reorders among the siblings", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-config", M{"at": 0})))
		wantOrder(t, "guides", tree.Pages["p-guides"].Children, "p-config", "p-install")
		tree, _ = mustApply(t, batch(up("p-home", M{"at": 2})))
		wantOrder(t, "root", tree.Root, "p-guides", "p-api", "p-home")
	})
	t.Run("into the same parent keeps the place", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-install", M{"into": "p-guides"}), up("p-guides", M{"into": nil})))
		wantOrder(t, "guides", tree.Pages["p-guides"].Children, "p-install", "p-config")
		wantOrder(t, "root", tree.Root, "p-home", "p-guides", "p-api")
	})
	t.Run("a subtree moves whole", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-guides", M{"into": "p-api"})))
		wantOrder(t, "root", tree.Root, "p-home", "p-api")
		wantOrder(t, "api", tree.Pages["p-api"].Children, "p-reference", "p-guides")
		wantOrder(t, "guides", tree.Pages["p-guides"].Children, "p-install", "p-config")
	})
	t.Run("a slug taken in the new parent gets a suffix", func(t *testing.T) {
		tree, _ := mustApply(t, batch(up("p-reference", M{"slug": "install"}), up("p-reference", M{"into": "p-guides"})))
		if s := tree.Pages["p-reference"].Slug; s != "install-2" {
			t.Errorf("slug = %q, want install-2", s)
		}
	})
	t.Run("explicit slug checked against the new parent", func(t *testing.T) {
		applyErr(t, batch(up("p-reference", M{"into": "p-guides", "slug": "config"})), "changes[0].slug: ", `"config"`)
		tree, _ := mustApply(t, batch(up("p-config", M{"into": "p-api", "slug": "install"})))
		if s := tree.Pages["p-config"].Slug; s != "install" {
			t.Errorf("slug = %q, want install", s)
		}
	})
	t.Run("into itself or a descendant", func(t *testing.T) {
		applyErr(t, batch(up("p-guides", M{"into": "p-guides"})), "changes[0].into: ", "cannot move into itself")
		applyErr(t, batch(up("p-guides", M{"into": "p-install"})), "changes[0].into: ", "cannot move into itself or one of its subpages")
		applyErr(t, batch(M{"operation": "insert_page", "ref": "deep", "into": "p-config", "document": M{}},
			up("p-guides", M{"into": "deep"})), "changes[1].into: ", "subpages")
	})
	t.Run("into a missing page", func(t *testing.T) {
		applyErr(t, batch(up("p-guides", M{"into": "nope"})), "changes[0].into: ", `no page "nope"`)
	})
	t.Run("at past the end", func(t *testing.T) {
		applyErr(t, batch(up("p-config", M{"at": 2})), "changes[0].at: ", "past the end")
		applyErr(t, batch(up("p-config", M{"into": "p-api", "at": 2})), "changes[0].at: ", "past the end")
	})
}

func TestDelete(t *testing.T) {
	tree, res := mustApply(t, batch(M{"operation": "delete_page", "page": "p-guides"}))
	wantOrder(t, "root", tree.Root, "p-home", "p-api")
	for _, id := range []string{"p-guides", "p-install", "p-config"} {
		if _, ok := tree.Pages[id]; ok {
			t.Errorf("page %s not deleted", id)
		}
	}
	wantOutcomes(t, res.Changes, Outcome{Kind: DeletedPage, PageID: "p-guides"},
		Outcome{Kind: DeletedPage, PageID: "p-install"}, Outcome{Kind: DeletedPage, PageID: "p-config"})

	t.Run("a page of the batch", func(t *testing.T) {
		tree, res := mustApply(t, batch(M{"operation": "insert_page", "ref": "tmp", "into": "p-config", "document": M{}},
			M{"operation": "delete_page", "page": "tmp"}, M{"operation": "delete_page", "page": "p-reference"}))
		if _, ok := tree.Pages["n1"]; ok {
			t.Error("page n1 not deleted")
		}
		wantOrder(t, "config", tree.Pages["p-config"].Children)
		wantOrder(t, "api", tree.Pages["p-api"].Children)
		wantOutcomes(t, res.Changes, Outcome{Kind: DeletedPage, PageID: "p-reference"})
	})
	t.Run("twice", func(t *testing.T) {
		applyErr(t, batch(M{"operation": "delete_page", "page": "p-guides"}, M{"operation": "delete_page", "page": "p-install"}),
			"changes[1].page: ", `no page "p-install"`)
	})
	t.Run("missing", func(t *testing.T) {
		applyErr(t, batch(M{"operation": "delete_page", "page": "nope"}), "changes[0].page: ", `no page "nope"`)
	})
}

func TestRefLinks(t *testing.T) {
	tree, res := mustApply(t, batch(
		M{"operation": "insert_page", "ref": "first", "document": md(
			"# First\n\nSee [second](./second.md), [bare](second), [prefixed](ref:second) and [me](./first.md).\n")},
		M{"operation": "insert_page", "ref": "second", "into": "p-guides", "document": md(
			"# Second\n\nBack to [first](./first.md).\n")},
	))
	if got, want := tree.Pages["n1"].Markdown,
		"See [second](/pages/n2), [bare](/pages/n2), [prefixed](/pages/n2) and [me](/pages/n1).\n"; got != want {
		t.Errorf("first =\n%q\nwant\n%q", got, want)
	}
	if got, want := tree.Pages["n2"].Markdown, "Back to [first](/pages/n1).\n"; got != want {
		t.Errorf("second =\n%q\nwant\n%q", got, want)
	}
	wantOutcomes(t, res.Changes, Outcome{CreatedPage, "n1", "first"}, Outcome{CreatedPage, "n2", "second"})
	for _, p := range tree.Pages {
		if strings.Contains(p.Markdown, "first.md") || strings.Contains(p.Markdown, "second.md") || strings.Contains(p.Markdown, "ref:") {
			t.Errorf("page %s keeps a batch ref: %q", p.ID, p.Markdown)
		}
	}

	t.Run("update_page links to a ref", func(t *testing.T) {
		tree, _ := mustApply(t, batch(
			M{"operation": "update_page", "page": "p-home", "document": md("Go to [new](./new.md).\n")},
			M{"operation": "insert_page", "ref": "new", "document": M{}},
		))
		if got, want := tree.Pages["p-home"].Markdown, "Go to [new](/pages/n1).\n"; got != want {
			t.Errorf("home = %q, want %q", got, want)
		}
	})
	t.Run("a ref deleted in the batch is a broken link", func(t *testing.T) {
		tree, _ := mustApply(t, batch(
			M{"operation": "insert_page", "document": md("See [gone](./gone.md).\n")},
			M{"operation": "insert_page", "ref": "gone", "document": M{}},
			M{"operation": "delete_page", "page": "gone"},
		))
		if got, want := tree.Pages["n1"].Markdown, "See [gone](./gone.md).\n"; got != want {
			t.Errorf("markdown = %q, want %q", got, want)
		}
	})
	t.Run("pages the batch did not write are left alone", func(t *testing.T) {
		tree := fixture()
		tree.Pages["p-config"].Markdown = "[x](./install.md)\n"
		res, err := run(t, tree, batch(M{"operation": "update_page", "page": "p-config", "title": "C"}), options())
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Tree.Pages["p-config"].Markdown; got != "[x](./install.md)\n" {
			t.Errorf("markdown = %q", got)
		}
	})
}

func TestLinksToExistingPages(t *testing.T) {
	doc := strings.Join([]string{
		"# Links",
		"",
		"- [slug rel](install) [slug abs](/guides/config) [slug dir](/guides) [slug nested](/api/reference)",
		"- [git rel](./install.md) [git abs](/guides/README.md) [git up](../README.md) [git other](../api/reference.md)",
		"- [id](/pages/p-config) [id anchor](/pages/p-config#sec) [git anchor](./install.md#setup) [slug anchor](/guides/config#opts)",
		"- [query](./install.md?x=1) [titled](./config.md \"Config\") [angle](<./install.md>)",
		"- [ext](https://example.com/install) [mail](mailto:a@b.c) [in-app](https://docs.example.com/guides) [proto](//cdn.example.com/x)",
		"- [anchor](#local) [broken md](./missing.md) [broken id](/pages/nope) [broken slug](nowhere) [broken file](/files/nope)",
		"- ![diagram](diagram.png) ![by id](/files/f-diagram)",
		"- [defn][d] <https://auto.example.com>",
		"",
		"[d]: ./config.md",
	}, "\n")
	tree, _ := mustApply(t, batch(M{"operation": "insert_page", "into": "p-guides", "document": md(doc)}))
	want := strings.Join([]string{
		"- [slug rel](/pages/p-install) [slug abs](/pages/p-config) [slug dir](/pages/p-guides) [slug nested](/pages/p-reference)",
		"- [git rel](/pages/p-install) [git abs](/pages/p-guides) [git up](/pages/p-home) [git other](/pages/p-reference)",
		"- [id](/pages/p-config) [id anchor](/pages/p-config#sec) [git anchor](/pages/p-install#setup) [slug anchor](/pages/p-config#opts)",
		"- [query](/pages/p-install) [titled](/pages/p-config \"Config\") [angle](</pages/p-install>)",
		"- [ext](https://example.com/install) [mail](mailto:a@b.c) [in-app](https://docs.example.com/guides) [proto](//cdn.example.com/x)",
		"- [anchor](#local) [broken md](./missing.md) [broken id](/pages/nope) [broken slug](nowhere) [broken file](/files/nope)",
		"- ![diagram](/files/f-diagram) ![by id](/files/f-diagram)",
		"- [defn][d] <https://auto.example.com>",
		"",
		"[d]: /pages/p-config",
		"",
	}, "\n")
	got := tree.Pages["n1"].Markdown
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(gl) != len(wl) {
		t.Fatalf("markdown =\n%s\nwant\n%s", got, want)
	}
	for i := range wl {
		if gl[i] != wl[i] {
			t.Errorf("line %d =\n  %s\nwant\n  %s", i+1, gl[i], wl[i])
		}
	}
}

// Code holds no links, so resolving a link must not change the same text
// in code spans or code blocks.
func TestLinkRewriteLeavesCode(t *testing.T) {
	doc := "[real](./install.md)\n\n`[span](./install.md)`\n\n```\n[block](./install.md)\n```\n"
	tree, _ := mustApply(t, batch(M{"operation": "insert_page", "into": "p-guides", "document": md(doc)}))
	want := "[real](/pages/p-install)\n\n`[span](./install.md)`\n\n```\n[block](./install.md)\n```\n"
	if got := tree.Pages["n1"].Markdown; got != want {
		t.Errorf("markdown =\n%q\nwant\n%q", got, want)
	}
}

func TestFileRefs(t *testing.T) {
	tree, res := mustApply(t, batch(
		M{"operation": "insert_page", "document": md("![logo](./logo) [manual](./manual) [logo bare](logo) ![by name](logo.png)\n")},
		M{"operation": "insert_files", "files": []M{
			{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": "cG5nIGJ5dGVz"}, // "png bytes"
			{"ref": "manual", "name": "manual.pdf", "url": "https://example.com/manual.pdf"},
			{"name": "plain.txt", "contentType": "text/plain", "base64": ""},
		}},
	))
	if got, want := tree.Pages["n1"].Markdown,
		"![logo](/files/n2) [manual](/files/n3) [logo bare](/files/n2) ![by name](/files/n2)\n"; got != want {
		t.Errorf("markdown =\n%q\nwant\n%q", got, want)
	}
	want := []content.File{
		{ID: "n2", Name: "logo.png", ContentType: "image/png", Size: 9, Blob: content.Hash("png bytes")},
		{ID: "n3", Name: "manual.pdf", ContentType: "application/octet-stream", Size: int64(len("https://example.com/manual.pdf")),
			Blob: content.Hash("https://example.com/manual.pdf")},
		{ID: "n4", Name: "plain.txt", ContentType: "text/plain", Size: 0, Blob: content.Hash("")},
	}
	if len(res.Files) != len(want) {
		t.Fatalf("files = %d, want %d", len(res.Files), len(want))
	}
	for i, f := range res.Files {
		if *f != want[i] {
			t.Errorf("file %d = %+v, want %+v", i, *f, want[i])
		}
		if tree.Files[f.ID] != f {
			t.Errorf("file %s not in the tree", f.ID)
		}
	}
	if len(tree.Files) != 4 {
		t.Errorf("tree has %d files, want 4", len(tree.Files))
	}
	wantOutcomes(t, res.Changes, Outcome{Kind: CreatedPage, PageID: "n1"})

	t.Run("a tree without files", func(t *testing.T) {
		tree := fixture()
		tree.Files = nil
		res, err := run(t, tree, batch(M{"operation": "insert_files", "files": []M{{"name": "a", "url": "https://x.example/a"}}}), options())
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Tree.Files) != 1 || res.Tree.Files["n1"] == nil {
			t.Errorf("files = %v", res.Tree.Files)
		}
	})
	t.Run("bytes not stored", func(t *testing.T) {
		changes, err := Parse([]byte(batch(M{"operation": "insert_files", "files": []M{{"name": "a", "url": "https://x.example/a"}}})))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Apply(fixture(), changes, options())
		if err == nil || quire.ErrorCode(err) != quire.CodeInternal {
			t.Errorf("err = %v, want an internal error", err)
		}
	})
}

func TestRefRules(t *testing.T) {
	ins := func(ref string) M { return M{"operation": "insert_page", "ref": ref, "document": M{}} }
	files := func(refs ...string) M {
		var fs []M
		for _, r := range refs {
			fs = append(fs, M{"ref": r, "name": r, "url": "https://example.com/" + r})
		}
		return M{"operation": "insert_files", "files": fs}
	}
	applyErr(t, batch(ins("a"), ins("b"), ins("a")), "changes[2].ref: ", `ref "a" is used twice`)
	applyErr(t, batch(ins("a"), files("b", "a")), "changes[1].files[1].ref: ", `ref "a" is used twice`)
	applyErr(t, batch(files("a"), ins("a")), "changes[1].ref: ", "used twice")
	applyErr(t, batch(files("x", "x")), "changes[0].files[1].ref: ", "used twice")
	for _, ref := range []string{"home", "guides", "README", "README.md", "api", "home.md"} {
		applyErr(t, batch(ins("ok"), ins(ref)), "changes[1].ref: ", fmt.Sprintf("ref %q is the path of an existing page", ref))
		applyErr(t, batch(files(ref)), "changes[0].files[0].ref: ", "existing page")
	}
	// Nested pages' names are not top-level paths.
	mustApply(t, batch(ins("install"), ins("reference"), files("config")))
	// Ref errors come before any change is applied, whatever the order.
	applyErr(t, batch(M{"operation": "delete_page", "page": "nope"}, ins("home")), "changes[1].ref: ")
}

func TestOutcomes(t *testing.T) {
	_, res := mustApply(t, batch(
		M{"operation": "update_page", "page": "p-install", "title": "A"},
		M{"operation": "insert_page", "ref": "new", "into": "p-install", "document": M{}},
		M{"operation": "update_page", "page": "p-install", "title": "B"},
		M{"operation": "update_page", "page": "new", "title": "New"},
		M{"operation": "insert_page", "ref": "tmp", "document": M{}},
		M{"operation": "delete_page", "page": "p-config"},
		M{"operation": "update_page", "page": "p-home", "hidden": true},
		M{"operation": "update_page", "page": "p-reference", "title": "R"},
		M{"operation": "delete_page", "page": "tmp"},
		M{"operation": "delete_page", "page": "p-api"},
		M{"operation": "insert_page", "document": M{}},
	))
	wantOutcomes(t, res.Changes,
		Outcome{UpdatedPage, "p-install", ""},
		Outcome{CreatedPage, "n1", "new"},
		Outcome{DeletedPage, "p-config", ""},
		Outcome{UpdatedPage, "p-home", ""},
		Outcome{DeletedPage, "p-reference", ""},
		Outcome{DeletedPage, "p-api", ""},
		Outcome{CreatedPage, "n3", ""},
	)
}

// A failing change anywhere fails the batch with an error naming it.
func TestFailingChange(t *testing.T) {
	good := []M{
		{"operation": "insert_page", "ref": "a", "document": md("[b](./b.md)")},
		{"operation": "update_page", "page": "p-home", "title": "H"},
		{"operation": "insert_files", "files": []M{{"name": "f", "url": "https://example.com/f"}}},
		{"operation": "delete_page", "page": "p-config"},
		{"operation": "insert_page", "ref": "b", "into": "a", "document": M{}},
	}
	bad := []struct {
		change M
		field  string
	}{
		{M{"operation": "update_page", "page": "nope", "title": "x"}, "page"},
		{M{"operation": "delete_page", "page": "nope"}, "page"},
		{M{"operation": "revert_page", "page": "nope"}, "page"},
		{M{"operation": "insert_page", "into": "nope", "document": M{}}, "into"},
		{M{"operation": "insert_page", "at": 99, "document": M{}}, "at"},
		{M{"operation": "update_page", "page": "p-guides", "into": "p-install"}, "into"},
		{M{"operation": "insert_page", "slug": "guides", "document": M{}}, "slug"},
		{M{"operation": "revert_page", "page": "p-home", "revision": "r-nope"}, "revision"},
	}
	for _, b := range bad {
		for i := 0; i <= len(good); i++ {
			changes := slices.Concat(good[:i], []M{b.change}, good[i:])
			tree := fixture()
			res, err := run(t, tree, batch(changes...), options())
			if err == nil {
				t.Errorf("bad change %v at %d: no error (%+v)", b.change, i, res.Changes)
				continue
			}
			prefix := fmt.Sprintf("changes[%d].%s: ", i, b.field)
			if msg := quire.ErrorMessage(err); !strings.HasPrefix(msg, prefix) || quire.ErrorCode(err) != quire.CodeInvalid {
				t.Errorf("bad change %v at %d: error %q (%s), want it to start with %q", b.change, i, msg, quire.ErrorCode(err), prefix)
			}
			if res != nil {
				t.Errorf("bad change at %d: result %+v, want nil", i, res)
			}
		}
	}
}

func TestRevert(t *testing.T) {
	// cr is the fixture after some edits: install modified, config deleted,
	// "p-new" added under guides.
	cr := func() *content.Tree {
		tree := fixture()
		tree.Pages["p-install"].Title = "Changed"
		tree.Pages["p-install"].Slug = "changed"
		tree.Pages["p-install"].Markdown = "Changed.\n"
		tree.Pages["p-install"].Hidden = true
		tree.Pages["p-install"].UpdatedAt = 50
		tree.Pages["p-install"].Children = []string{"p-kid"}
		tree.Pages["p-kid"] = &content.Page{ID: "p-kid", Title: "Kid", Slug: "kid", Kind: content.KindDocument}
		delete(tree.Pages, "p-config")
		tree.Pages["p-guides"].Children = []string{"p-new", "p-install"}
		tree.Pages["p-new"] = &content.Page{ID: "p-new", Title: "New", Slug: "new", Kind: content.KindDocument}
		return tree
	}
	revert := func(page string, extra M) M {
		c := M{"operation": "revert_page", "page": page}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	apply := func(t *testing.T, tree *content.Tree, o Options, changes ...M) *Result {
		t.Helper()
		res, err := run(t, tree, batch(changes...), o)
		if err != nil {
			t.Fatalf("Apply: %v", err)
		}
		checkTree(t, res.Tree)
		return res
	}

	t.Run("modified page", func(t *testing.T) {
		res := apply(t, cr(), options(), revert("p-install", nil))
		p := res.Tree.Pages["p-install"]
		if p.Title != "Install" || p.Slug != "install" || p.Markdown != "Install body.\n" || p.Hidden || p.CreatedAt != 1 || p.UpdatedAt != now {
			t.Errorf("page = %+v", *p)
		}
		wantOrder(t, "install children", p.Children, "p-kid")
		wantOrder(t, "guides", res.Tree.Pages["p-guides"].Children, "p-new", "p-install")
		wantOutcomes(t, res.Changes, Outcome{Kind: UpdatedPage, PageID: "p-install"})
	})
	t.Run("added page", func(t *testing.T) {
		res := apply(t, cr(), options(), revert("p-new", nil))
		if _, ok := res.Tree.Pages["p-new"]; ok {
			t.Error("p-new not removed")
		}
		wantOrder(t, "guides", res.Tree.Pages["p-guides"].Children, "p-install")
		wantOutcomes(t, res.Changes, Outcome{Kind: DeletedPage, PageID: "p-new"})
	})
	t.Run("deleted page", func(t *testing.T) {
		res := apply(t, cr(), options(), revert("p-config", nil))
		p := res.Tree.Pages["p-config"]
		if p == nil || p.Title != "Config" || p.Slug != "config" || p.Markdown != "Config body.\n" || len(p.Children) != 0 {
			t.Fatalf("page = %+v", p)
		}
		wantOrder(t, "guides", res.Tree.Pages["p-guides"].Children, "p-new", "p-install", "p-config")
		wantOutcomes(t, res.Changes, Outcome{Kind: CreatedPage, PageID: "p-config"})
	})
	t.Run("deleted page whose parent is gone goes to the root", func(t *testing.T) {
		tree := fixture()
		tree.Root = []string{"p-home", "p-api"}
		for _, id := range []string{"p-guides", "p-install", "p-config"} {
			delete(tree.Pages, id)
		}
		res := apply(t, tree, options(), revert("p-install", nil))
		wantOrder(t, "root", res.Tree.Root, "p-home", "p-api", "p-install")
	})
	t.Run("deleted page whose slug was taken", func(t *testing.T) {
		tree := fixture()
		tree.Pages["p-guides"].Children = []string{"p-install", "p-other"}
		delete(tree.Pages, "p-config")
		tree.Pages["p-other"] = &content.Page{ID: "p-other", Title: "Other", Slug: "config", Kind: content.KindDocument}
		res := apply(t, tree, options(), revert("p-config", nil))
		if s := res.Tree.Pages["p-config"].Slug; s != "config-2" {
			t.Errorf("slug = %q, want config-2", s)
		}
	})
	t.Run("modified page whose slug was taken", func(t *testing.T) {
		tree := cr()
		tree.Pages["p-new"].Slug = "install"
		res := apply(t, tree, options(), revert("p-install", nil))
		if s := res.Tree.Pages["p-install"].Slug; s == "install" {
			t.Errorf("slug = %q, the slug of sibling p-new", s)
		}
	})
	t.Run("to a given revision", func(t *testing.T) {
		o := options()
		r1 := fixture()
		r1.Pages["p-install"].Title = "Install v1"
		o.Trees = map[string]*content.Tree{"r1": r1}
		res := apply(t, cr(), o, revert("p-install", M{"revision": "r1"}), revert("p-new", M{"revision": "r1"}))
		if got := res.Tree.Pages["p-install"].Title; got != "Install v1" {
			t.Errorf("title = %q", got)
		}
		wantOutcomes(t, res.Changes, Outcome{UpdatedPage, "p-install", ""}, Outcome{DeletedPage, "p-new", ""})
	})
	t.Run("after other changes of the batch", func(t *testing.T) {
		res := apply(t, fixture(), options(),
			M{"operation": "update_page", "page": "p-home", "title": "Edited", "document": md("[x](./guides/install.md)")},
			revert("p-home", nil),
			M{"operation": "insert_page", "ref": "tmp", "document": M{}},
			revert("n1", nil))
		if p := res.Tree.Pages["p-home"]; p.Title != "Home" || p.Markdown != "Home body.\n" {
			t.Errorf("home = %+v", *p)
		}
		if _, ok := res.Tree.Pages["n1"]; ok {
			t.Error("n1 not removed")
		}
		wantOutcomes(t, res.Changes, Outcome{UpdatedPage, "p-home", ""})
	})
	t.Run("errors", func(t *testing.T) {
		for _, tc := range []struct {
			change M
			prefix string
			sub    string
		}{
			{revert("p-install", M{"revision": "r-missing"}), "changes[0].revision: ", `no revision "r-missing"`},
			{revert("nope", nil), "changes[0].page: ", `no page "nope"`},
		} {
			_, err := run(t, cr(), batch(tc.change), options())
			if err == nil {
				t.Errorf("%v: no error", tc.change)
				continue
			}
			checkErr(t, err, tc.prefix, tc.sub)
		}
	})
}

func TestRevisionsToLoad(t *testing.T) {
	changes, err := Parse([]byte(batch(
		M{"operation": "revert_page", "page": "a", "revision": "r2"},
		M{"operation": "revert_page", "page": "b"},
		M{"operation": "update_page", "page": "c", "title": "x"},
		M{"operation": "revert_page", "page": "c", "revision": "r1"},
		M{"operation": "revert_page", "page": "d", "revision": "r2"},
	)))
	if err != nil {
		t.Fatal(err)
	}
	wantOrder(t, "revisions", RevisionsToLoad(changes), "r2", "r1")
	if got := RevisionsToLoad(nil); got != nil {
		t.Errorf("RevisionsToLoad(nil) = %v", got)
	}
}

func TestTimestamps(t *testing.T) {
	tree, _ := mustApply(t, batch(
		M{"operation": "insert_page", "document": M{}},
		M{"operation": "update_page", "page": "p-config", "at": 0},
		M{"operation": "update_page", "page": "p-home", "description": "d"},
	))
	for id, want := range map[string][2]int64{
		"n1": {now, now}, "p-config": {1, now}, "p-home": {1, now}, "p-install": {1, 2}, "p-guides": {1, 2},
	} {
		if p := tree.Pages[id]; p.CreatedAt != want[0] || p.UpdatedAt != want[1] {
			t.Errorf("%s: CreatedAt, UpdatedAt = %d, %d; want %d, %d", id, p.CreatedAt, p.UpdatedAt, want[0], want[1])
		}
	}
}

func TestApplyToEmptyTree(t *testing.T) {
	for _, tree := range []*content.Tree{{}, {Pages: map[string]*content.Page{}}} {
		res, err := run(t, tree, batch(M{"operation": "insert_page", "document": md("# First\n")},
			M{"operation": "insert_page", "document": md("# Second\n\n[first](./README.md)")}), options())
		if err != nil {
			t.Fatal(err)
		}
		checkTree(t, res.Tree)
		wantOrder(t, "root", res.Tree.Root, "n1", "n2")
		if got := res.Tree.Pages["n2"].Markdown; got != "[first](/pages/n1)\n" {
			t.Errorf("markdown = %q", got)
		}
	}
}
