package api_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// End-to-end tests of the read side of content: revisions, pages, paths,
// changes, files and links, through the real router and database.

type refOut struct {
	Kind           string `json:"kind"`
	Page           string `json:"page,omitempty"`
	File           string `json:"file,omitempty"`
	URL            string `json:"url,omitempty"`
	Space          string `json:"space,omitempty"`
	VersionContext *struct {
		Type     string `json:"type"`
		Revision string `json:"revision"`
	} `json:"versionContext,omitempty"`
}

type linkOut struct {
	Status             string   `json:"status"`
	Relation           string   `json:"relation"`
	Href               string   `json:"href"`
	TargetReference    refOut   `json:"targetReference"`
	LocationReferences []refOut `json:"locationReferences"`
}

type linkListOut struct {
	Items []linkOut `json:"items"`
	Count int       `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
	Stats struct {
		Total  int `json:"total"`
		Broken struct {
			Total         int `json:"total"`
			ChangeRequest int `json:"changeRequest"`
		} `json:"broken"`
	} `json:"stats"`
}

type changedPageOut struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

type changeOut struct {
	Type string          `json:"type"`
	Page *changedPageOut `json:"page,omitempty"`
	File *struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		ContentType string `json:"contentType"`
		DownloadURL string `json:"downloadURL"`
	} `json:"file,omitempty"`
	Attributes map[string]map[string]any `json:"attributes,omitempty"`
	Parent     *struct {
		Before *changedPageOut `json:"before,omitempty"`
		After  *changedPageOut `json:"after,omitempty"`
	} `json:"parent,omitempty"`
}

type changesOut struct {
	MergedFrom *crOut      `json:"mergedFrom"`
	Changes    []changeOut `json:"changes"`
	More       int         `json:"more"`
}

type fileListOut struct {
	Items []fileOut `json:"items"`
	Count int       `json:"count"`
	Next  *struct {
		Page string `json:"page"`
	} `json:"next"`
}

type refListOut struct {
	Items []refOut `json:"items"`
	Count int      `json:"count"`
}

// readGet GETs path as token's holder, wants 200 and decodes into v, which
// it zeroes first so that nothing of an earlier decode is left over.
func (e *env) readGet(t *testing.T, token, path string, v any) {
	t.Helper()
	reflect.ValueOf(v).Elem().SetZero()
	e.call(t, token, "GET", path, nil).want(t, http.StatusOK).Decode(t, v)
}

// readNewCR opens another change request in an existing space.
func (e *env) readNewCR(t *testing.T, spaceID, subject string) (crOut, string) {
	t.Helper()
	var c crOut
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": subject}).want(t, http.StatusCreated).Decode(t, &c)
	return c, "/v1/spaces/" + spaceID + "/change-requests/" + c.ID
}

// readMerge merges a change request and returns the space's new revision.
func (e *env) readMerge(t *testing.T, crPath string) string {
	t.Helper()
	var merged struct{ Revision, Result string }
	e.call(t, e.admin.token, "POST", crPath+"/merge", nil).want(t, http.StatusOK).Decode(t, &merged)
	if merged.Result != "merge" || merged.Revision == "" {
		t.Fatalf("merge result %+v", merged)
	}
	return merged.Revision
}

// readDownload GETs a file's downloadURL (signed, under /file/) or its
// bearer download route (under /v1/) through the router.
func (e *env) readDownload(t *testing.T, token, downloadURL string) *response {
	t.Helper()
	path, ok := strings.CutPrefix(downloadURL, testPublicURL)
	if !ok || !strings.HasPrefix(path, "/v1/") && !strings.HasPrefix(path, "/file/") {
		t.Fatalf("downloadURL %q is not under %s/v1/ nor %s/file/", downloadURL, testPublicURL, testPublicURL)
	}
	return e.call(t, token, "GET", path, nil)
}

// bearerDownload is the route that serves file fileID of revision revID of
// space spaceID to API tokens.
func bearerDownload(spaceID, revID, fileID string) string {
	return testPublicURL + "/v1/spaces/" + spaceID + "/revisions/" + revID + "/files/" + fileID + "/download"
}

// findNodes walks a decoded JSON value (maps in key order) and returns the
// objects match accepts.
func findNodes(v any, match func(map[string]any) bool) []map[string]any {
	var out []map[string]any
	switch v := v.(type) {
	case map[string]any:
		if match(v) {
			out = append(out, v)
		}
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = append(out, findNodes(v[k], match)...)
		}
	case []any:
		for _, c := range v {
			out = append(out, findNodes(c, match)...)
		}
	}
	return out
}

// refsIn returns the data.ref of every node of doc of the given type.
func refsIn(doc any, nodeType string) []map[string]any {
	var refs []map[string]any
	for _, n := range findNodes(doc, func(m map[string]any) bool { return m["type"] == nodeType }) {
		if data, ok := n["data"].(map[string]any); ok {
			if ref, ok := data["ref"].(map[string]any); ok {
				refs = append(refs, ref)
			}
		}
	}
	return refs
}

// tinyPNG encodes a w×h image as PNG.
func tinyPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.NRGBA{R: uint8(60 * x), G: uint8(90 * y), B: 200, A: 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatalf("encode png: %v", err)
	}
	return buf.Bytes()
}

func insertFiles(files ...map[string]any) map[string]any {
	return map[string]any{"operation": "insert_files", "files": files}
}

func TestContentReadTree(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	initial := e.revision(t, sp+"/content")
	if len(initial.Pages) != 0 || len(initial.Files) != 0 || len(initial.Parents) != 0 || initial.Type != "edits" {
		t.Fatalf("a new space's content: %+v; want no pages, files or parents, type edits", initial)
	}
	var empty struct{ Pages []pageOut }
	e.readGet(t, e.admin.token, sp+"/content/pages", &empty)
	if empty.Pages == nil || len(empty.Pages) != 0 {
		t.Errorf("pages of an empty space: %v, want []", empty.Pages)
	}

	e.author(t, e.admin.token, cr,
		insertPage("guide", "# Guide\n\nStart here.\n"),
		insertPage("install", "# Install\n\nRead the [FAQ](../faq.md) first.\n", "into", "guide"),
		insertPage("configure", "# Configure\n\nSet it up.\n", "into", "guide"),
		insertPage("faq", "---\ndescription: Questions\n---\n# FAQ\n\nAsk away.\n"),
	).want(t, http.StatusOK)

	// The change request's content: nested pages, paths, Git paths.
	crRev := e.revision(t, cr+"/content")
	if diff := cmp.Diff([]string{"Guide", "FAQ"}, titles(crRev.Pages)); diff != "" {
		t.Fatalf("top-level pages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Install", "Configure"}, titles(crRev.Pages[0].Pages)); diff != "" {
		t.Fatalf("subpages of Guide (-want +got):\n%s", diff)
	}
	guide, faq := crRev.Pages[0], crRev.Pages[1]
	install, configure := guide.Pages[0], guide.Pages[1]
	if crRev.Type != "edits" || !slices.Equal(crRev.Parents, []string{initial.ID}) || len(crRev.Files) != 0 {
		t.Errorf("change request revision: type %q parents %v files %d; want edits, [%s], 0", crRev.Type, crRev.Parents, len(crRev.Files), initial.ID)
	}
	for _, c := range []struct {
		p              pageOut
		slug, path, gp string
	}{
		{guide, "guide", "guide", "README.md"},
		{install, "install", "guide/install", "guide/install.md"},
		{configure, "configure", "guide/configure", "guide/configure.md"},
		{faq, "faq", "faq", "faq.md"},
	} {
		if c.p.Slug != c.slug || c.p.Path != c.path || c.p.Git == nil || c.p.Git.Path != c.gp {
			t.Errorf("page %s: slug %q path %q git %+v; want %q %q %q", c.p.Title, c.p.Slug, c.p.Path, c.p.Git, c.slug, c.path, c.gp)
		}
	}
	if want := "Read the [FAQ](/pages/" + faq.ID + ") first.\n"; install.Markdown != want {
		t.Errorf("install markdown %q, want %q", install.Markdown, want)
	}
	if faq.Description != "Questions" || faq.Markdown != "Ask away.\n" {
		t.Errorf("faq: description %q markdown %q", faq.Description, faq.Markdown)
	}
	var crPages struct{ Pages []pageOut }
	e.readGet(t, e.admin.token, cr+"/content/pages", &crPages)
	if diff := cmp.Diff(crRev.Pages, crPages.Pages); diff != "" {
		t.Errorf("CR/content/pages differs from CR/content pages (-content +pages):\n%s", diff)
	}
	var got pageOut
	e.readGet(t, e.admin.token, cr+"/content/page/"+guide.ID, &got)
	if got.ID != guide.ID || got.Markdown != "Start here.\n" || !slices.Equal(titles(got.Pages), []string{"Install", "Configure"}) {
		t.Errorf("CR/content/page/guide: %+v", got)
	}

	// Unchanged space until the merge.
	if live := e.revision(t, sp+"/content"); live.ID != initial.ID || len(live.Pages) != 0 {
		t.Fatalf("space content before the merge: %+v", live)
	}
	e.call(t, e.admin.token, "GET", sp+"/content/page/"+guide.ID, nil).wantError(t, http.StatusNotFound, "page")

	var c crOut
	e.readGet(t, e.admin.token, cr, &c)
	merged := e.readMerge(t, cr)

	var live struct {
		revisionOut
		MergedFrom *crOut `json:"mergedFrom"`
	}
	e.readGet(t, e.admin.token, sp+"/content", &live)
	if live.ID != merged || live.Type != "merge" || !slices.Equal(live.Parents, []string{initial.ID, crRev.ID}) {
		t.Errorf("space content after the merge: id %s type %s parents %v; want %s merge [%s %s]", live.ID, live.Type, live.Parents, merged, initial.ID, crRev.ID)
	}
	if live.MergedFrom == nil || live.MergedFrom.ID != c.ID || live.MergedFrom.Number != 1 || live.MergedFrom.Status != "merged" {
		t.Errorf("mergedFrom of the merge revision: %+v; want change request %s (1), merged", live.MergedFrom, c.ID)
	}
	if diff := cmp.Diff(crRev.Pages, live.Pages); diff != "" {
		t.Errorf("merged pages differ from the change request's (-cr +space):\n%s", diff)
	}

	// Revisions by id: the merge, the change request's edits, the first one.
	var byID struct {
		revisionOut
		MergedFrom *crOut `json:"mergedFrom"`
	}
	e.readGet(t, e.admin.token, sp+"/revisions/"+crRev.ID, &byID)
	if byID.ID != crRev.ID || byID.Type != "edits" || byID.MergedFrom != nil || !slices.Equal(titles(byID.Pages), []string{"Guide", "FAQ"}) {
		t.Errorf("revision %s: %+v", crRev.ID, byID)
	}
	if first := e.revision(t, sp+"/revisions/"+initial.ID); len(first.Pages) != 0 || first.ID != initial.ID {
		t.Errorf("first revision: %+v", first)
	}
	var revPages struct{ Pages []pageOut }
	e.readGet(t, e.admin.token, sp+"/revisions/"+merged+"/pages", &revPages)
	if diff := cmp.Diff(live.Pages, revPages.Pages); diff != "" {
		t.Errorf("S/revisions/{id}/pages (-content +pages):\n%s", diff)
	}
	e.readGet(t, e.admin.token, sp+"/revisions/"+merged+"/page/"+install.ID, &got)
	if got.ID != install.ID || got.Title != "Install" || got.Path != "guide/install" {
		t.Errorf("S/revisions/{id}/page/install: %+v", got)
	}
	e.call(t, e.admin.token, "GET", sp+"/revisions/"+initial.ID+"/page/"+install.ID, nil).wantError(t, http.StatusNotFound, "page")
	e.call(t, e.admin.token, "GET", sp+"/revisions/nosuchrevision", nil).wantError(t, http.StatusNotFound, "revision")

	// A revision is reachable only through its own space.
	other := "/v1/spaces/" + e.crSpace(t)
	for _, p := range []string{"", "/pages", "/page/" + install.ID, "/changes"} {
		e.call(t, e.admin.token, "GET", other+"/revisions/"+merged+p, nil).wantError(t, http.StatusNotFound)
	}
	e.call(t, e.admin.token, "GET", other+"/change-requests/"+c.ID+"/content", nil).wantError(t, http.StatusNotFound)

	// Page formats.
	for _, base := range []string{sp + "/content", cr + "/content", sp + "/revisions/" + merged} {
		page := base + "/page/" + install.ID
		for _, q := range []string{"", "?format=markdown"} {
			res := e.call(t, e.admin.token, "GET", page+q, nil).want(t, http.StatusOK)
			m := res.JSON(t)
			if m["markdown"] != install.Markdown || m["document"] != nil || m["git"] == nil {
				t.Errorf("GET %s%s: markdown %v document %v git %v", page, q, m["markdown"], m["document"], m["git"])
			}
		}
		m := e.call(t, e.admin.token, "GET", page+"?format=document", nil).want(t, http.StatusOK).JSON(t)
		if _, has := m["markdown"]; has {
			t.Errorf("%s?format=document still has markdown", page)
		}
		doc, _ := m["document"].(map[string]any)
		if doc["object"] != "document" {
			t.Fatalf("%s?format=document: document %v", page, m["document"])
		}
		links := findNodes(doc, func(n map[string]any) bool { return n["object"] == "inline" && n["type"] == "link" })
		if len(links) != 1 {
			t.Fatalf("%s?format=document: %d link inlines, want 1: %v", page, len(links), doc)
		}
		ref := links[0]["data"].(map[string]any)["ref"]
		if diff := cmp.Diff(map[string]any{"kind": "page", "page": faq.ID}, ref); diff != "" {
			t.Errorf("link ref (-want +got):\n%s", diff)
		}
		leaves := findNodes(links[0], func(n map[string]any) bool { return n["object"] == "leaf" })
		if len(leaves) != 1 || leaves[0]["text"] != "FAQ" {
			t.Errorf("link text leaves %v, want one \"FAQ\"", leaves)
		}
		m = e.call(t, e.admin.token, "GET", page+"?metadata=false", nil).want(t, http.StatusOK).JSON(t)
		if _, has := m["git"]; has || m["markdown"] != install.Markdown {
			t.Errorf("%s?metadata=false: git %v markdown %v; want no git", page, m["git"], m["markdown"])
		}
		if m := e.call(t, e.admin.token, "GET", page+"?metadata=true&computed=false", nil).want(t, http.StatusOK).JSON(t); m["git"] == nil {
			t.Errorf("%s?metadata=true: no git", page)
		}
		for q, param := range map[string]string{"?format=html": "format", "?metadata=no": "metadata", "?metadata=": "metadata", "?computed=1": "computed"} {
			e.call(t, e.admin.token, "GET", page+q, nil).wantError(t, http.StatusBadRequest, param)
		}
		e.call(t, e.admin.token, "GET", base+"/page/nosuchpage", nil).wantError(t, http.StatusNotFound, "page")
	}
	// metadata=false on whole revisions and page lists too.
	for _, p := range []string{sp + "/content?metadata=false", cr + "/content/pages?metadata=false", sp + "/revisions/" + merged + "/pages?metadata=false"} {
		res := e.call(t, e.admin.token, "GET", p, nil).want(t, http.StatusOK)
		if bytes.Contains(res.Body, []byte(`"git"`)) {
			t.Errorf("GET %s has git metadata: %s", p, res.Body)
		}
	}
	e.call(t, e.admin.token, "GET", sp+"/content?format=html", nil).wantError(t, http.StatusBadRequest, "format")
	e.call(t, e.admin.token, "GET", cr+"/content/pages?metadata=maybe", nil).wantError(t, http.StatusBadRequest, "metadata")

	// Pages by path.
	byPath := func(path, id string) scenario {
		return scenario{path: sp + "/content/path/" + path, want: []check{field("id", id)}}
	}
	scenarios := []scenario{
		byPath("guide/install", install.ID),
		byPath("guide/install.md", install.ID),
		byPath("guide/configure/", configure.ID),
		byPath("guide", guide.ID),
		byPath("guide/README.md", guide.ID),
		byPath("README.md", guide.ID), // Guide's Git path, as the first page
		byPath("faq", faq.ID),
		byPath("faq.md", faq.ID),
		{path: sp + "/content/path/guide/install?format=document&metadata=false", want: []check{nonzero("document"), zero("markdown", "git")}},
		{path: sp + "/content/path/faq?format=pdf", status: http.StatusBadRequest, errs: []string{"format"}},
	}
	for _, path := range []string{"guide/nothing", "nothing", "install", "faq/install", "guide/install/more", "README", "guide/faq.md"} {
		scenarios = append(scenarios, scenario{path: sp + "/content/path/" + path, status: http.StatusNotFound})
	}
	run(t, e, scenarios)
}

func TestContentReadChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr1 := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	initial := e.revision(t, sp+"/content")

	var first changesOut
	e.readGet(t, e.admin.token, sp+"/revisions/"+initial.ID+"/changes", &first)
	if first.Changes == nil || len(first.Changes) != 0 || first.More != 0 || first.MergedFrom != nil {
		t.Errorf("changes of a new space's revision: %+v, want none", first)
	}

	e.author(t, e.admin.token, cr1,
		insertPage("guide", "# Guide\n\nStart here.\n"),
		insertPage("install", "# Install\n\nRun it.\n", "into", "guide"),
		insertPage("faq", "# FAQ\n\nAsk away.\n"),
		insertPage("extra", "# Extra\n\nMore.\n"),
		insertFiles(map[string]any{"name": "notes.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("hi\n"))}),
	).want(t, http.StatusOK)
	cr1Rev := e.revision(t, cr1+"/content")
	guide, faq, extra := cr1Rev.Pages[0], cr1Rev.Pages[1], cr1Rev.Pages[2]
	install := guide.Pages[0]
	notes := cr1Rev.Files[0]
	var c1 crOut
	e.readGet(t, e.admin.token, cr1, &c1)

	// What the change request changes, before its merge.
	created := []changeOut{
		{Type: "page_created", Page: &changedPageOut{ID: guide.ID, Type: "document", Title: "Guide", Path: "guide"}},
		{Type: "page_created", Page: &changedPageOut{ID: install.ID, Type: "document", Title: "Install", Path: "guide/install"}},
		{Type: "page_created", Page: &changedPageOut{ID: faq.ID, Type: "document", Title: "FAQ", Path: "faq"}},
		{Type: "page_created", Page: &changedPageOut{ID: extra.ID, Type: "document", Title: "Extra", Path: "extra"}},
		{Type: "file_created"},
	}
	checkChanges := func(t *testing.T, path string, want []changeOut, more int, mergedFrom string) changesOut {
		t.Helper()
		var got changesOut
		e.readGet(t, e.admin.token, path, &got)
		if got.More != more {
			t.Errorf("%s: more %d, want %d", path, got.More, more)
		}
		switch {
		case mergedFrom == "" && got.MergedFrom != nil:
			t.Errorf("%s: mergedFrom %s, want none", path, got.MergedFrom.ID)
		case mergedFrom != "" && (got.MergedFrom == nil || got.MergedFrom.ID != mergedFrom):
			t.Errorf("%s: mergedFrom %+v, want %s", path, got.MergedFrom, mergedFrom)
		}
		if diff := cmp.Diff(want, got.Changes, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".File" }, cmp.Ignore())); diff != "" {
			t.Errorf("%s: changes (-want +got):\n%s", path, diff)
		}
		return got
	}
	got := checkChanges(t, cr1+"/changes", created, 0, "")
	if f := got.Changes[4].File; f == nil || f.ID != notes.ID || f.Name != "notes.txt" || f.ContentType != "text/plain" || f.DownloadURL != notes.DownloadURL {
		t.Errorf("file_created file %+v, want %+v", f, notes)
	}

	m1 := e.readMerge(t, cr1)
	got = checkChanges(t, sp+"/revisions/"+m1+"/changes", created, 0, c1.ID)
	if got.MergedFrom.Number != 1 || got.MergedFrom.Status != "merged" {
		t.Errorf("mergedFrom: number %d status %q", got.MergedFrom.Number, got.MergedFrom.Status)
	}
	if f := got.Changes[4].File; f == nil || f.ID != notes.ID || !strings.Contains(f.DownloadURL, "/"+m1+"/") {
		t.Errorf("file_created after the merge: %+v, want %s downloadable from %s", f, notes.ID, m1)
	}
	checkChanges(t, sp+"/revisions/"+cr1Rev.ID+"/changes", created, 0, "")
	checkChanges(t, sp+"/revisions/"+m1+"/changes?limit=1", created[:1], 4, c1.ID)
	checkChanges(t, sp+"/revisions/"+m1+"/changes?limit=5", created, 0, c1.ID)
	checkChanges(t, cr1+"/changes?limit=2", created[:2], 3, "")
	for _, q := range []string{"?limit=0", "?limit=x", "?limit=1001"} {
		e.call(t, e.admin.token, "GET", sp+"/revisions/"+m1+"/changes"+q, nil).wantError(t, http.StatusBadRequest, "limit")
		e.call(t, e.admin.token, "GET", cr1+"/changes"+q, nil).wantError(t, http.StatusBadRequest, "limit")
	}

	// A second change request moves a page and deletes another.
	c2, cr2 := e.readNewCR(t, spaceID, "Rework")
	e.author(t, e.admin.token, cr2,
		map[string]any{"operation": "delete_page", "page": faq.ID},
		map[string]any{"operation": "update_page", "page": extra.ID, "into": guide.ID},
	).want(t, http.StatusOK)
	reworked := []changeOut{
		{Type: "page_moved", Page: &changedPageOut{ID: extra.ID, Type: "document", Title: "Extra", Path: "guide/extra"}},
		{Type: "page_deleted", Page: &changedPageOut{ID: faq.ID, Type: "document", Title: "FAQ", Path: "faq"}},
	}
	ignoreParent := cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Parent" }, cmp.Ignore())
	checkList := func(t *testing.T, got changesOut, path string, want []changeOut, mergedFrom string) {
		t.Helper()
		if diff := cmp.Diff(want, got.Changes, ignoreParent); diff != "" {
			t.Errorf("%s: changes (-want +got):\n%s", path, diff)
		}
		if got.More != 0 {
			t.Errorf("%s: more %d", path, got.More)
		}
		if (mergedFrom == "") != (got.MergedFrom == nil) || got.MergedFrom != nil && got.MergedFrom.ID != mergedFrom {
			t.Errorf("%s: mergedFrom %+v, want %q", path, got.MergedFrom, mergedFrom)
		}
	}
	checkReworked := func(t *testing.T, path, mergedFrom string) {
		t.Helper()
		var got changesOut
		e.readGet(t, e.admin.token, path, &got)
		checkList(t, got, path, reworked, mergedFrom)
		if len(got.Changes) > 0 {
			p := got.Changes[0].Parent
			if p == nil || p.Before != nil || p.After == nil || p.After.ID != guide.ID || p.After.Title != "Guide" || p.After.Path != "guide" {
				t.Errorf("%s: page_moved parent %+v; want from the top level into Guide", path, p)
			}
		}
	}
	checkReworked(t, cr2+"/changes", "")
	cr2Rev := e.revision(t, cr2+"/content")
	checkReworked(t, sp+"/revisions/"+cr2Rev.ID+"/changes", "")
	m2 := e.readMerge(t, cr2)
	checkReworked(t, sp+"/revisions/"+m2+"/changes", c2.ID)

	// A third one edits a page's title and document. The reference cannot
	// validate page_edited: its attributes are a oneOf of Document, Group
	// and Link attributes, none closed, and the latter two's properties are
	// a subset of the former's, so every document change matches all three.
	// Those responses are read around the contract check.
	c3, cr3 := e.readNewCR(t, spaceID, "Retitle")
	e.author(t, e.admin.token, cr3,
		map[string]any{"operation": "update_page", "page": install.ID, "document": map[string]any{"markdown": "# Installing\n\nRun the installer.\n"}},
	).want(t, http.StatusOK)
	edited := []changeOut{
		{Type: "page_edited", Page: &changedPageOut{ID: install.ID, Type: "document", Title: "Installing", Path: "guide/install"},
			Attributes: map[string]map[string]any{
				"title":    {"before": "Install", "after": "Installing"},
				"document": {"before": "Run it.\n", "after": "Run the installer.\n"},
			}},
	}
	uncheckedChanges := func(t *testing.T, path string) changesOut {
		t.Helper()
		req := httptest.NewRequestWithContext(t.Context(), "GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+e.admin.token)
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, req)
		res := &response{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}
		var got changesOut
		res.want(t, http.StatusOK).Decode(t, &got)
		return got
	}
	checkList(t, uncheckedChanges(t, cr3+"/changes"), cr3+"/changes", edited, "")
	m3 := e.readMerge(t, cr3)
	checkList(t, uncheckedChanges(t, sp+"/revisions/"+m3+"/changes"), "merge "+m3, edited, c3.ID)

	// Old revisions keep their content.
	var page pageOut
	e.readGet(t, e.admin.token, sp+"/revisions/"+m1+"/page/"+install.ID, &page)
	if page.Title != "Install" || page.Markdown != "Run it.\n" {
		t.Errorf("install in the first merge: %q %q", page.Title, page.Markdown)
	}
	e.readGet(t, e.admin.token, sp+"/content/page/"+install.ID, &page)
	if page.Title != "Installing" || page.Markdown != "Run the installer.\n" {
		t.Errorf("install now: %q %q", page.Title, page.Markdown)
	}
	e.readGet(t, e.admin.token, sp+"/revisions/"+m1+"/page/"+faq.ID, &page)
	e.call(t, e.admin.token, "GET", sp+"/revisions/"+m2+"/page/"+faq.ID, nil).wantError(t, http.StatusNotFound)
	e.call(t, e.admin.token, "GET", sp+"/content/page/"+faq.ID, nil).wantError(t, http.StatusNotFound)
	e.readGet(t, e.admin.token, sp+"/revisions/"+m2+"/page/"+install.ID, &page)
	if page.Title != "Install" {
		t.Errorf("install in the second merge: %q", page.Title)
	}
	live := e.revision(t, sp+"/content")
	if live.ID != m3 || !slices.Equal(titles(live.Pages), []string{"Guide"}) || !slices.Equal(titles(live.Pages[0].Pages), []string{"Installing", "Extra"}) {
		t.Errorf("space after two merges: %s %v %v", live.ID, titles(live.Pages), titles(live.Pages[0].Pages))
	}
	e.call(t, e.admin.token, "GET", sp+"/revisions/"+m3+"/changes?format=html", nil).wantError(t, http.StatusBadRequest, "format")
}

func TestContentReadFiles(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	reader := e.addUser(t, "read", "Rita Reader")
	outsider := e.outsider(t)
	logo, chart := tinyPNG(t, 3, 2), tinyPNG(t, 4, 5)
	var mu sync.Mutex
	var fetched []string
	remote := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		fetched = append(fetched, r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/notes.txt":
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			_, _ = w.Write([]byte("Remote notes\n"))
		case "/chart":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write(chart)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(remote.Close)

	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	e.author(t, e.admin.token, cr,
		insertFiles(
			map[string]any{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(logo)},
			map[string]any{"name": "notes.txt", "url": remote.URL + "/notes.txt"},
			map[string]any{"name": "chart.png", "url": remote.URL + "/chart"},
			map[string]any{"name": "a-readme.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("Read me\n"))},
		),
		insertPage("gallery", "# Gallery\n\n![The logo](logo)\n"),
	).want(t, http.StatusOK)
	mu.Lock()
	if !slices.Equal(fetched, []string{"/notes.txt", "/chart"}) {
		t.Errorf("fetched %v, want /notes.txt then /chart", fetched)
	}
	mu.Unlock()

	rev := e.revision(t, cr+"/content")
	names := []string{}
	for _, f := range rev.Files {
		names = append(names, f.Name)
	}
	if diff := cmp.Diff([]string{"a-readme.txt", "chart.png", "logo.png", "notes.txt"}, names); diff != "" {
		t.Fatalf("files of the change request (-want +got):\n%s", diff)
	}
	readme, chartF, logoF, notes := rev.Files[0], rev.Files[1], rev.Files[2], rev.Files[3]
	dims := func(f fileOut) string {
		if f.Dimensions == nil {
			return "none"
		}
		return fmt.Sprintf("%dx%d", f.Dimensions.Width, f.Dimensions.Height)
	}
	for _, c := range []struct {
		f               fileOut
		contentType     string
		size            int
		dimensions      string
		body            []byte
		downloadTypeHdr string
	}{
		{logoF, "image/png", len(logo), "3x2", logo, "image/png"},
		{chartF, "image/png", len(chart), "4x5", chart, "image/png"},
		{notes, "text/plain", len("Remote notes\n"), "none", []byte("Remote notes\n"), "text/plain; charset=utf-8"},
		{readme, "text/plain", len("Read me\n"), "none", []byte("Read me\n"), "text/plain; charset=utf-8"},
	} {
		if c.f.ContentType != c.contentType || c.f.Size != c.size || dims(c.f) != c.dimensions {
			t.Errorf("file %s: %s, %d bytes, %s; want %s, %d bytes, %s", c.f.Name, c.f.ContentType, c.f.Size, dims(c.f), c.contentType, c.size, c.dimensions)
		}
		want := testPublicURL + "/file/" + spaceID + "/" + rev.ID + "/" + c.f.ID + "?"
		if !strings.HasPrefix(c.f.DownloadURL, want) {
			t.Errorf("file %s: downloadURL %q, want it signed under %q", c.f.Name, c.f.DownloadURL, want)
		}
		// The signed downloadURL without a token, and the bearer route with
		// a reader's.
		bearer := bearerDownload(spaceID, rev.ID, c.f.ID)
		for _, get := range []struct{ token, url string }{{"", c.f.DownloadURL}, {e.admin.token, bearer}, {reader.token, bearer}} {
			res := e.readDownload(t, get.token, get.url).want(t, http.StatusOK)
			if !bytes.Equal(res.Body, c.body) {
				t.Errorf("download %s: %d bytes %q, want %d bytes", c.f.Name, len(res.Body), res.Body, len(c.body))
			}
			if ct := res.Header.Get("Content-Type"); ct != c.downloadTypeHdr {
				t.Errorf("download %s: Content-Type %q, want %q", c.f.Name, ct, c.downloadTypeHdr)
			}
		}
		e.readDownload(t, outsider.token, bearer).wantError(t, http.StatusNotFound)
		e.readDownload(t, "", bearer).wantError(t, http.StatusUnauthorized)
		var one fileOut
		e.readGet(t, reader.token, cr+"/content/files/"+c.f.ID, &one)
		if diff := cmp.Diff(c.f, one); diff != "" {
			t.Errorf("GET file %s (-in revision +alone):\n%s", c.f.Name, diff)
		}
	}
	gallery := rev.Pages[0]
	if want := "![The logo](/files/" + logoF.ID + ")\n"; gallery.Markdown != want {
		t.Errorf("gallery markdown %q, want %q", gallery.Markdown, want)
	}
	doc := e.call(t, e.admin.token, "GET", cr+"/content/page/"+gallery.ID+"?format=document", nil).want(t, http.StatusOK).JSON(t)["document"]
	imgRefs := append(refsIn(doc, "image"), refsIn(doc, "inline-image")...)
	if diff := cmp.Diff([]map[string]any{{"kind": "file", "file": logoF.ID}}, imgRefs); diff != "" {
		t.Errorf("image refs of the gallery document (-want +got):\n%s", diff)
	}

	// Lists: one page, then a walk of pages of one.
	var list fileListOut
	e.readGet(t, e.admin.token, cr+"/content/files", &list)
	if list.Count != 4 || list.Next != nil || len(list.Items) != 4 {
		t.Errorf("file list: count %d next %v items %d", list.Count, list.Next, len(list.Items))
	}
	if diff := cmp.Diff(rev.Files, list.Items); diff != "" {
		t.Errorf("file list vs revision files (-revision +list):\n%s", diff)
	}
	walk := func(t *testing.T, base string) []string {
		t.Helper()
		var seen []string
		q := "?limit=1"
		for range 10 {
			var page fileListOut
			e.readGet(t, e.admin.token, base+"/files"+q, &page)
			if page.Count != 4 || len(page.Items) != 1 {
				t.Fatalf("page %s: count %d items %d; want 4 and 1", q, page.Count, len(page.Items))
			}
			seen = append(seen, page.Items[0].Name)
			if page.Next == nil {
				return seen
			}
			q = "?limit=1&page=" + page.Next.Page
		}
		t.Fatalf("walk did not end: %v", seen)
		return nil
	}
	if diff := cmp.Diff(names, walk(t, cr+"/content")); diff != "" {
		t.Errorf("walk of the change request's files (-want +got):\n%s", diff)
	}
	var two fileListOut
	e.readGet(t, e.admin.token, cr+"/content/files?limit=3", &two)
	if len(two.Items) != 3 || two.Next == nil {
		t.Fatalf("limit=3: %d items next %v", len(two.Items), two.Next)
	}
	next := two.Next.Page
	two = fileListOut{}
	e.readGet(t, e.admin.token, cr+"/content/files?limit=3&page="+next, &two)
	if len(two.Items) != 1 || two.Items[0].Name != "notes.txt" || two.Next != nil {
		t.Errorf("second page of 3: %+v", two)
	}
	e.call(t, e.admin.token, "GET", cr+"/content/files?limit=0", nil).wantError(t, http.StatusBadRequest, "limit")
	e.call(t, e.admin.token, "GET", cr+"/content/files?page=garbage!", nil).wantError(t, http.StatusBadRequest, "page")
	e.call(t, e.admin.token, "GET", cr+"/content/files/nosuchfile", nil).wantError(t, http.StatusNotFound, "file")
	e.call(t, e.admin.token, "GET", sp+"/content/files/"+logoF.ID, nil).wantError(t, http.StatusNotFound, "file")

	// A URL that cannot be fetched rejects the whole batch.
	before := rev.ID
	e.author(t, e.admin.token, cr, insertFiles(map[string]any{"name": "gone.png", "url": remote.URL + "/gone.png"})).
		wantError(t, http.StatusBadRequest, "changes[0].files[0].url", "404")
	e.author(t, e.admin.token, cr,
		insertPage("late", "# Late\n\nNot added.\n"),
		insertFiles(
			map[string]any{"name": "fine.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("fine"))},
			map[string]any{"name": "gone.png", "url": remote.URL + "/gone.png"},
		),
	).wantError(t, http.StatusBadRequest, "changes[1].files[1].url")
	var c crOut
	e.readGet(t, e.admin.token, cr, &c)
	after := e.revision(t, cr+"/content")
	if c.Revision != before || after.ID != before || len(after.Files) != 4 || !slices.Equal(titles(after.Pages), []string{"Gallery"}) {
		t.Errorf("after refused batches: revision %s (%s) files %d pages %v; want %s unchanged", c.Revision, after.ID, len(after.Files), titles(after.Pages), before)
	}

	// Backlinks: by ref in the same batch (gallery), by /files/<id> later.
	e.author(t, e.admin.token, cr,
		insertPage("notes-page", "# Notes\n\nGet [the notes](/files/"+notes.ID+") and see ![logo](/files/"+logoF.ID+").\n"),
	).want(t, http.StatusOK)
	rev = e.revision(t, cr+"/content")
	notesPage := rev.Pages[1]
	if notesPage.Title != "Notes" {
		t.Fatalf("pages %v", titles(rev.Pages))
	}
	var pl linkListOut
	e.readGet(t, e.admin.token, cr+"/content/page/"+notesPage.ID+"/links", &pl)
	fileLinks := []refOut{}
	for _, l := range pl.Items {
		if l.Status != "ok" {
			t.Errorf("link %s: status %s", l.Href, l.Status)
		}
		fileLinks = append(fileLinks, l.TargetReference)
	}
	// Items follow the order links are first met in the whole revision (the
	// logo is linked from Gallery first), not the page's own order.
	byFile := cmpopts.SortSlices(func(a, b refOut) bool { return a.File < b.File })
	if diff := cmp.Diff([]refOut{{Kind: "file", File: notes.ID, Space: spaceID}, {Kind: "file", File: logoF.ID, Space: spaceID}}, fileLinks, byFile); diff != "" {
		t.Errorf("link targets of the notes page (-want +got):\n%s", diff)
	}
	backlinks := func(t *testing.T, base, fileID string) []string {
		t.Helper()
		var refs refListOut
		e.readGet(t, reader.token, base+"/files/"+fileID+"/backlinks", &refs)
		ids := []string{}
		for _, r := range refs.Items {
			if r.Kind != "page" || r.Space != spaceID {
				t.Errorf("backlink %+v: want a page of space %s", r, spaceID)
			}
			ids = append(ids, r.Page)
		}
		if refs.Count != len(ids) {
			t.Errorf("backlinks count %d for %d items", refs.Count, len(ids))
		}
		return ids
	}
	for _, base := range []string{cr + "/content", ""} {
		if base == "" {
			e.readMerge(t, cr)
			base = sp + "/content"
		}
		for _, c := range []struct {
			file fileOut
			want []string
		}{
			{logoF, []string{gallery.ID, notesPage.ID}},
			{notes, []string{notesPage.ID}},
			{readme, []string{}},
		} {
			if diff := cmp.Diff(c.want, backlinks(t, base, c.file.ID)); diff != "" {
				t.Errorf("%s: backlinks of %s (-want +got):\n%s", base, c.file.Name, diff)
			}
		}
		var one refListOut
		e.readGet(t, e.admin.token, base+"/files/"+logoF.ID+"/backlinks?limit=1", &one)
		if len(one.Items) != 1 || one.Items[0].Page != gallery.ID || one.Count != 2 {
			t.Errorf("%s: backlinks limit=1: %+v", base, one)
		}
		e.call(t, e.admin.token, "GET", base+"/files/nosuchfile/backlinks", nil).wantError(t, http.StatusNotFound, "file")
	}

	// The space's files after the merge, downloadable from its revision.
	live := e.revision(t, sp+"/content")
	if diff := cmp.Diff(names, walk(t, sp+"/content")); diff != "" {
		t.Errorf("walk of the space's files (-want +got):\n%s", diff)
	}
	var spaceLogo fileOut
	e.readGet(t, reader.token, sp+"/content/files/"+logoF.ID, &spaceLogo)
	if !strings.Contains(spaceLogo.DownloadURL, "/"+live.ID+"/") || spaceLogo.Size != len(logo) {
		t.Errorf("space file %+v; want it downloadable from %s", spaceLogo, live.ID)
	}
	if res := e.readDownload(t, "", spaceLogo.DownloadURL).want(t, http.StatusOK); !bytes.Equal(res.Body, logo) {
		t.Errorf("download from the space: %d bytes", len(res.Body))
	}
	bearer := bearerDownload(spaceID, live.ID, logoF.ID)
	if res := e.readDownload(t, reader.token, bearer).want(t, http.StatusOK); !bytes.Equal(res.Body, logo) {
		t.Errorf("download from the space with a token: %d bytes", len(res.Body))
	}
	e.readDownload(t, outsider.token, bearer).wantError(t, http.StatusNotFound)
	// Not through another space, nor as another file.
	other := e.crSpace(t)
	e.readDownload(t, e.admin.token, strings.Replace(bearer, spaceID, other, 1)).wantError(t, http.StatusNotFound)
	e.readDownload(t, e.admin.token, strings.Replace(bearer, logoF.ID, "nosuchfile", 1)).wantError(t, http.StatusNotFound, "file")
	e.readDownload(t, "", strings.Replace(spaceLogo.DownloadURL, spaceID, other, 1)).wantError(t, http.StatusForbidden, "signature")
	e.readDownload(t, "", strings.Replace(spaceLogo.DownloadURL, logoF.ID, "nosuchfile", 1)).wantError(t, http.StatusForbidden, "signature")
}

func TestContentReadLinks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	e.author(t, e.admin.token, cr,
		insertPage("home", "# Home\n\nSee [the guide](./guide.md), [a missing page](./nowhere.md), [Go](https://go.dev/doc/) and [the app](http://quire.test/s/elsewhere).\n\nAgain: [guide](ref:guide), and [a section](#usage).\n"),
		insertPage("guide", "# Guide\n\nBack [home](ref:home) or [to the top](#top).\n"),
		insertPage("plain", "# Plain\n\nNo links at all.\n"),
	).want(t, http.StatusOK)
	rev := e.revision(t, cr+"/content")
	home, guide, plain := rev.Pages[0], rev.Pages[1], rev.Pages[2]
	if want := "See [the guide](/pages/" + guide.ID + "), [a missing page](./nowhere.md), [Go](https://go.dev/doc/) and [the app](http://quire.test/s/elsewhere).\n\nAgain: [guide](/pages/" + guide.ID + "), and [a section](#usage).\n"; home.Markdown != want {
		t.Errorf("home markdown %q, want %q", home.Markdown, want)
	}

	type item struct{ status, kind, target, href string }
	summary := func(l linkOut) item {
		target := l.TargetReference.Page + l.TargetReference.File + l.TargetReference.URL
		return item{l.Status, l.TargetReference.Kind, target, l.Href}
	}
	toGuide := item{"ok", "page", guide.ID, "/pages/" + guide.ID}
	broken := item{"broken", "page", "", "./nowhere.md"}
	goDev := item{"ok", "url", "https://go.dev/doc/", "https://go.dev/doc/"}
	inApp := item{"in-app", "url", "http://quire.test/s/elsewhere", "http://quire.test/s/elsewhere"}
	toHome := item{"ok", "page", home.ID, "/pages/" + home.ID}

	links := func(t *testing.T, path string) linkListOut {
		t.Helper()
		var l linkListOut
		e.readGet(t, e.admin.token, path, &l)
		if l.Items == nil {
			t.Errorf("%s: items is null", path)
		}
		return l
	}
	check := func(t *testing.T, path string, want []item, total, brokenTotal, brokenCR int) linkListOut {
		t.Helper()
		l := links(t, path)
		got := []item{}
		for _, it := range l.Items {
			got = append(got, summary(it))
			if it.Relation != "reference" {
				t.Errorf("%s: relation %q", path, it.Relation)
			}
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(item{})); diff != "" {
			t.Errorf("%s: links (-want +got):\n%s", path, diff)
		}
		if l.Count != len(want) || l.Stats.Total != total || l.Stats.Broken.Total != brokenTotal || l.Stats.Broken.ChangeRequest != brokenCR {
			t.Errorf("%s: count %d stats %+v; want %d, total %d, broken %d, in the change request %d", path, l.Count, l.Stats, len(want), total, brokenTotal, brokenCR)
		}
		return l
	}

	// In the change request, before the merge.
	l := check(t, cr+"/content/page/"+home.ID+"/links", []item{toGuide, broken, goDev, inApp}, 4, 1, 1)
	for _, it := range l.Items {
		if len(it.LocationReferences) != 1 || it.LocationReferences[0].Page != home.ID || it.LocationReferences[0].VersionContext == nil ||
			it.LocationReferences[0].VersionContext.Revision != rev.ID {
			t.Errorf("location of %s: %+v; want home in %s", it.Href, it.LocationReferences, rev.ID)
		}
	}
	check(t, cr+"/content/page/"+guide.ID+"/links", []item{toHome}, 1, 0, 0)
	check(t, cr+"/content/page/"+plain.ID+"/links", []item{}, 0, 0, 0)
	e.call(t, e.admin.token, "GET", cr+"/content/page/nosuchpage/links", nil).wantError(t, http.StatusNotFound, "page")
	check(t, sp+"/links", []item{}, 0, 0, 0)

	// In the space, after it.
	merged := e.readMerge(t, cr)
	all := []item{toGuide, broken, goDev, inApp, toHome}
	l = check(t, sp+"/links", all, 5, 1, 0)
	for i, it := range l.Items {
		wantFrom := home.ID
		if i == 4 {
			wantFrom = guide.ID
		}
		if len(it.LocationReferences) != 1 || it.LocationReferences[0].Page != wantFrom || it.LocationReferences[0].Kind != "page" ||
			it.LocationReferences[0].Space != spaceID || it.LocationReferences[0].VersionContext.Revision != merged {
			t.Errorf("location of %s: %+v; want page %s of %s in %s", it.Href, it.LocationReferences, wantFrom, spaceID, merged)
		}
		if it.TargetReference.Kind == "page" && it.Status == "ok" && it.TargetReference.Space != spaceID {
			t.Errorf("target %+v: want space %s", it.TargetReference, spaceID)
		}
	}
	check(t, sp+"/links?status=ok", []item{toGuide, goDev, toHome}, 5, 1, 0)
	check(t, sp+"/links?status=broken", []item{broken}, 5, 1, 0)
	check(t, sp+"/links?status=in-app", []item{inApp}, 5, 1, 0)
	check(t, sp+"/content/page/"+home.ID+"/links", []item{toGuide, broken, goDev, inApp}, 4, 1, 0)
	check(t, sp+"/content/page/"+home.ID+"/links?status=broken", []item{broken}, 4, 1, 0)
	check(t, sp+"/content/page/"+guide.ID+"/links?status=in-app", []item{}, 1, 0, 0)
	for _, p := range []string{sp + "/links?status=dead", sp + "/content/page/" + home.ID + "/links?status=OK", sp + "/links?status="} {
		e.call(t, e.admin.token, "GET", p, nil).wantError(t, http.StatusBadRequest, "status")
	}
	e.call(t, e.admin.token, "GET", sp+"/content/page/nosuchpage/links", nil).wantError(t, http.StatusNotFound, "page")

	// Pages of links.
	var walked []item
	q := "?limit=2"
	for range 5 {
		p := links(t, sp+"/links"+q)
		if p.Count != 5 || p.Stats.Total != 5 {
			t.Errorf("page %s: count %d total %d", q, p.Count, p.Stats.Total)
		}
		for _, it := range p.Items {
			walked = append(walked, summary(it))
		}
		if p.Next == nil {
			break
		}
		q = "?limit=2&page=" + p.Next.Page
	}
	if diff := cmp.Diff(all, walked, cmp.AllowUnexported(item{})); diff != "" {
		t.Errorf("walk of S/links?limit=2 (-want +got):\n%s", diff)
	}
	e.call(t, e.admin.token, "GET", sp+"/links?limit=0", nil).wantError(t, http.StatusBadRequest, "limit")

	// The same link from two pages is one item with both locations.
	_, cr2 := e.readNewCR(t, spaceID, "More links")
	e.author(t, e.admin.token, cr2,
		map[string]any{"operation": "update_page", "page": plain.ID, "document": map[string]any{"markdown": "Now [Go](https://go.dev/doc/) and [gone](/pages/nosuchpage).\n"}},
	).want(t, http.StatusOK)
	l = links(t, cr2+"/content/page/"+plain.ID+"/links")
	if l.Stats.Total != 2 || l.Stats.Broken.Total != 1 || l.Stats.Broken.ChangeRequest != 1 {
		t.Errorf("plain's links in the second change request: stats %+v", l.Stats)
	}
	e.readMerge(t, cr2)
	l = links(t, sp+"/links?status=ok")
	for _, it := range l.Items {
		if it.TargetReference.URL != "https://go.dev/doc/" {
			continue
		}
		from := []string{}
		for _, r := range it.LocationReferences {
			from = append(from, r.Page)
		}
		if diff := cmp.Diff([]string{home.ID, plain.ID}, from); diff != "" {
			t.Errorf("locations of the go.dev link (-want +got):\n%s", diff)
		}
	}
	if l.Stats.Total != 6 || l.Stats.Broken.Total != 2 {
		t.Errorf("space link stats %+v; want 6 in all, 2 broken", l.Stats)
	}
}

func TestContentReadAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	e.author(t, e.admin.token, cr,
		insertFiles(map[string]any{"ref": "pic", "name": "pic.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(tinyPNG(t, 1, 1))}),
		insertPage("guide", "# Guide\n\n![pic](pic) and [the web](https://example.com/).\n"),
	).want(t, http.StatusOK)
	merged := e.readMerge(t, cr)
	_, cr2 := e.readNewCR(t, spaceID, "Next")
	e.author(t, e.admin.token, cr2, insertPage("next", "# Next\n\nMore.\n")).want(t, http.StatusOK)
	rev := e.revision(t, sp+"/content")
	page, file := rev.Pages[0], rev.Files[0]

	paths := []string{
		sp + "/content", sp + "/content/pages", sp + "/content/page/" + page.ID, sp + "/content/page/" + page.ID + "/links",
		sp + "/content/path/guide", sp + "/content/files", sp + "/content/files/" + file.ID, sp + "/content/files/" + file.ID + "/backlinks",
		sp + "/links", sp + "/revisions/" + merged, sp + "/revisions/" + merged + "/pages", sp + "/revisions/" + merged + "/page/" + page.ID,
		sp + "/revisions/" + merged + "/changes", strings.TrimPrefix(bearerDownload(spaceID, merged, file.ID), testPublicURL),
		cr2 + "/content", cr2 + "/content/pages", cr2 + "/content/page/" + page.ID, cr2 + "/content/page/" + page.ID + "/links",
		cr2 + "/content/files", cr2 + "/content/files/" + file.ID, cr2 + "/content/files/" + file.ID + "/backlinks", cr2 + "/changes",
	}
	reader := e.addUser(t, "read", "Rita Reader")
	guest := e.addUser(t, "guest", "Gil Guest")
	outsider := e.outsider(t)
	var scenarios []scenario
	for _, p := range paths {
		var admin []byte
		scenarios = append(scenarios,
			scenario{path: p, want: []check{func(_ testing.TB, r *response) { admin = r.Body }}},
			scenario{name: "GET " + p + " as the reader, as the admin", as: reader, path: p, want: []check{func(t testing.TB, r *response) {
				if !bytes.Equal(admin, r.Body) {
					t.Errorf("the reader sees %s, the admin %s", r.Body, admin)
				}
			}}},
			scenario{as: outsider, path: p, status: http.StatusNotFound},
			scenario{as: guest, path: p, status: http.StatusNotFound},
			scenario{as: anonymous, path: p, status: http.StatusUnauthorized})
	}
	run(t, e, scenarios)
	// Reading is all a reader may do with content.
	e.author(t, reader.token, cr2, insertPage("", "# No\n")).wantError(t, http.StatusForbidden)
	// A guest given read on the space reads it too.
	scenarios = []scenario{{method: "POST", path: sp + "/permissions", body: map[string]any{"role": "read", "users": []string{guest.id}}, status: http.StatusNoContent}}
	for _, p := range paths {
		scenarios = append(scenarios, scenario{as: guest, path: p})
	}
	run(t, e, scenarios)
}
