package api_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
)

// folderCorpus fills a change request with what the folder layout must keep
// and merges it: deep nesting, unicode titles and slugs, duplicate titles,
// links between pages and to anchors, an image with a caption, every block
// type, an empty page, and files.
func (e *env) folderCorpus(t *testing.T) (spaceID string) {
	t.Helper()
	spaceID, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr,
		map[string]any{"operation": "insert_files", "files": []map[string]any{
			{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": cmPNG(t)},
			{"ref": "notes", "name": "notes.txt", "contentType": "text/plain", "base64": "bm90ZXMK"}}},
		insertPage("home", "---\ndescription: Start here\nemoji: 1f44b\n---\n# Welcome\n\nSee [install](./install.md#requirements), "+
			"[the unicode page](./uni.md) and [same](./same1.md).\n\n![The logo](./logo \"Logo title\")\n"),
		insertPage("guide", "---\nicon: book\n---\n# Guide\n\n> **Info**\n>\n> Read [home](./home.md) first.\n"),
		insertPage("install", "---\nhidden: true\n---\n# Install\n\n## Requirements\n\n"+
			"{% hint style=\"warning\" %}\nBack up first.\n{% endhint %}\n\n"+
			"{% tabs %}\n{% tab title=\"Linux\" %}\nmake\n{% endtab %}\n{% tab title=\"Mac\" %}\nbrew\n{% endtab %}\n{% endtabs %}\n\n"+
			"<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>\n\n"+
			"{% code title=\"main.go\" %}\n```go\npackage main\n```\n{% endcode %}\n\n"+
			"{% embed url=\"https://example.com/video\" %}\n\n{% file src=\"/files/FILE\" %}\n\n"+
			"<figure><img src=\"/files/FILE\" alt=\"Logo\"><figcaption><p>The caption</p></figcaption></figure>\n", "into", "guide"),
		insertPage("same1", "# Same\n\nOne.\n", "into", "guide"),
		insertPage("same2", "# Same\n\nTwo, see [one](./same1.md).\n", "into", "guide"),
		insertPage("empty", "# Empty\n", "into", "guide"),
		insertPage("uni", "# Über die Größe — 日本語\n\nBack [home](./home.md#top).\n", "slug", "über-größe"),
		insertPage("d1", "# Level 1\n", "into", "install"),
		insertPage("d2", "# Level 2\n", "into", "d1"),
		insertPage("d3", "# Level 3\n", "into", "d2"),
		insertPage("d4", "# Level 4\n\nUp to [level 1](./d1.md).\n", "into", "d3"),
	).want(t, http.StatusOK)
	// The file blocks name the files by id, as the editor stores them.
	rev := e.revision(t, cr+"/content")
	install := findPage(rev.Pages, "Install")
	md := strings.ReplaceAll(install.Markdown, "/files/FILE", "/files/"+rev.Files[0].ID)
	e.author(t, e.admin.token, cr, map[string]any{"operation": "update_page", "page": install.ID,
		"document": map[string]any{"markdown": "# Install\n\n" + md}}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "POST", cr+"/merge", nil).want(t, http.StatusOK)
	return spaceID
}

func findPage(pages []pageOut, title string) *pageOut {
	for i := range pages {
		if pages[i].Title == title {
			return &pages[i]
		}
		if p := findPage(pages[i].Pages, title); p != nil {
			return p
		}
	}
	return nil
}

// export GETs an export and reads the archive back.
func (e *env) export(t *testing.T, token, path, accept string) map[string]string {
	t.Helper()
	req := httptest.NewRequestWithContext(t.Context(), "GET", path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res := e.do(t, req).want(t, http.StatusOK)
	out := map[string]string{}
	if accept == "" {
		if ct := res.Header.Get("Content-Type"); ct != "application/zip" {
			t.Fatalf("Content-Type %q", ct)
		}
		zr, err := zip.NewReader(bytes.NewReader(res.Body), int64(len(res.Body)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			out[f.Name] = string(b)
		}
		return out
	}
	gz, err := gzip.NewReader(bytes.NewReader(res.Body))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		out[h.Name] = string(b)
	}
}

// upload uploads data through a signed URL and returns its key.
func (e *env) upload(t *testing.T, token, orgID, name string, data []byte) string {
	t.Helper()
	var u struct{ Object, URL, Key string }
	e.call(t, token, "POST", "/v1/orgs/"+orgID+"/storage/upload", map[string]any{
		"file": map[string]any{"name": name, "type": "application/zip", "size": len(data)}, "kind": "import_file"}).
		want(t, http.StatusCreated).Decode(t, &u)
	if u.Object != "storage-signed-url" || !strings.HasPrefix(u.URL, testPublicURL+"/v1/storage/uploads/") {
		t.Fatalf("upload URL %+v", u)
	}
	e.call(t, "", "PUT", strings.TrimPrefix(u.URL, testPublicURL), data).want(t, http.StatusOK)
	// A URL takes bytes once.
	e.call(t, "", "PUT", strings.TrimPrefix(u.URL, testPublicURL), data).wantError(t, http.StatusForbidden, "not valid")
	return u.Key
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for k := range files {
			if !yield(k) {
				return
			}
		}
	}) {
		w, err := zw.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[p]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// treeShape is a space's tree as a user sees it, ids left out: titles,
// slugs, metadata, bodies (with their links' ids named by slug or file
// name), files.
func (e *env) treeShape(t *testing.T, spaceID string) any {
	t.Helper()
	sp, err := e.db.Space(context.Background(), spaceID)
	if err != nil {
		t.Fatal(err)
	}
	_, tr, err := e.db.RevisionTree(context.Background(), spaceID, sp.RevisionID)
	if err != nil {
		t.Fatal(err)
	}
	name := func(md string) string {
		for id, f := range tr.Files {
			md = strings.ReplaceAll(md, "/files/"+id, "/files/<"+f.Name+">")
		}
		for id, p := range tr.Pages {
			md = strings.ReplaceAll(md, "/pages/"+id, "/pages/<"+p.Slug+">")
		}
		return md
	}
	var walk func(ids []string) []any
	walk = func(ids []string) []any {
		var out []any
		for _, id := range ids {
			p := *tr.Pages[id]
			kids := walk(p.Children)
			p.ID, p.Children, p.CreatedAt, p.UpdatedAt, p.Markdown = "", nil, 0, 0, name(p.Markdown)
			out = append(out, p, kids)
		}
		return out
	}
	var files []content.File
	for _, f := range tr.Files {
		g := *f
		g.ID = ""
		files = append(files, g)
	}
	slices.SortFunc(files, func(a, b content.File) int { return strings.Compare(a.Name, b.Name) })
	return []any{walk(tr.Root), files}
}

// TestFolderRoundTripThroughAPI exports a space as a zip and as a .tar.gz,
// imports the zip into an empty space through an upload, and exports that:
// the two folders are the same bytes, the two trees the same content.
func TestFolderRoundTripThroughAPI(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	src := e.folderCorpus(t)
	first := e.export(t, e.admin.token, "/v1/spaces/"+src+"/content/export", "")
	sp, _ := e.db.Space(t.Context(), src)
	tarred := e.export(t, e.admin.token, "/v1/spaces/"+src+"/revisions/"+sp.RevisionID+"/export", "application/gzip")
	if diff := cmp.Diff(first, tarred); diff != "" {
		t.Fatalf("zip and tar.gz differ:\n%s", diff)
	}
	if !strings.Contains(first["guide/README.md"], "{% hint style=\"info\" %}\nRead [home](../README.md) first.\n{% endhint %}") ||
		!strings.Contains(first["README.md"], "[install](guide/install/README.md#requirements)") ||
		!strings.Contains(first["guide/install/README.md"], `{% file src="../../.gitbook/assets/logo.png" %}`) ||
		!strings.Contains(first["SUMMARY.md"], "* [Guide](guide/README.md)\n  * [Install](guide/install/README.md)\n") {
		t.Errorf("export:\n%s\n%s\n%s\n%s", first["README.md"], first["guide/README.md"], first["guide/install/README.md"], first["SUMMARY.md"])
	}

	dst := e.crSpace(t)
	key := e.upload(t, e.admin.token, e.org, "handbook.zip", zipOf(t, first))
	var out importOut
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK).Decode(t, &out)
	if out.ImportedResources != 11 || out.Revision == "" {
		t.Errorf("import %+v", out)
	}
	second := e.export(t, e.admin.token, "/v1/spaces/"+dst+"/content/export", "")
	if diff := cmp.Diff(first, second); diff != "" {
		t.Fatalf("second export differs (-first +second):\n%s", diff)
	}
	// A .tar.gz (named anyhow) imports the same.
	var tgz bytes.Buffer
	a := gitsync.NewTarGz(&tgz)
	for _, p := range slices.Sorted(maps.Keys(first)) {
		a.Put(p, []byte(first[p]))
	}
	a.Close()
	third := e.crSpace(t)
	key = e.upload(t, e.admin.token, e.org, "handbook", tgz.Bytes())
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+third+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	if diff := cmp.Diff(first, e.export(t, e.admin.token, "/v1/spaces/"+third+"/content/export", "")); diff != "" {
		t.Fatalf("export of the .tar.gz import differs:\n%s", diff)
	}
	want, got := e.treeShape(t, src), e.treeShape(t, dst)
	// The one difference: the hint is written in GitBook's syntax.
	if diff := cmp.Diff(want, got); diff == "" || strings.Count(diff, "\n-") > 4 || !strings.Contains(diff, "{% hint") {
		t.Errorf("trees differ beyond the hint's syntax:\n%s", diff)
	}
}

// TestFolderImportGitBookRepository imports a folder as GitBook writes one:
// .gitbook.yaml with a root, SUMMARY.md with a group, READMEs, assets.
func TestFolderImportGitBookRepository(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	repo := map[string]string{
		".gitbook.yaml": "root: ./docs/\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n\nredirects:\n  old/page: guide/install.md\n",
		"code/main.go":  "package main\n",
		"docs/SUMMARY.md": "# Table of contents\n\n* [Introduction](README.md)\n* [Guide](guide/README.md)\n  * [Install it](guide/install.md)\n\n" +
			"## Reference\n\n* [API](reference/api.md)\n",
		"docs/README.md":                "---\ndescription: >-\n  A handbook.\nlayout:\n  title:\n    visible: true\n---\n\n# Introduction\n\nGo to [install](guide/install.md#steps).\n\n![](.gitbook/assets/logo.png)\n",
		"docs/guide/README.md":          "# Guide\n\n{% hint style=\"info\" %}\nHello.\n{% endhint %}\n",
		"docs/guide/install.md":         "---\nicon: download\n---\n\n# Install\n\n## Steps\n\nBack to [the start](../README.md).\n",
		"docs/reference/api.md":         "# API\n",
		"docs/.gitbook/assets/logo.png": string(mustB64(t, cmPNG(t))),
	}
	key := e.upload(t, e.admin.token, e.org, "repo.zip", zipOf(t, repo))
	e.call(t, e.admin.token, "POST", cr+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK)
	rev := e.revision(t, cr+"/content")
	if got := titles(rev.Pages); !slices.Equal(got, []string{"Introduction", "Guide", "Reference"}) {
		t.Fatalf("top level %v", got)
	}
	guide, ref := rev.Pages[1], rev.Pages[2]
	if guide.Slug != "guide" || len(guide.Pages) != 1 || guide.Pages[0].Title != "Install it" || guide.Pages[0].Slug != "install" {
		t.Errorf("guide %+v", guide)
	}
	var kinds struct {
		Pages []struct{ Kind string } `json:"pages"`
	}
	e.call(t, e.admin.token, "GET", cr+"/content", nil).want(t, http.StatusOK).Decode(t, &kinds)
	if kinds.Pages[2].Kind != "group" || len(ref.Pages) != 1 || ref.Pages[0].Title != "API" {
		t.Errorf("group %+v (%+v)", ref, kinds)
	}
	intro := rev.Pages[0]
	install := guide.Pages[0].ID
	if intro.Description != "A handbook." || len(rev.Files) != 1 || rev.Files[0].Name != "logo.png" ||
		!strings.Contains(intro.Markdown, "[install](/pages/"+install+"#steps)") ||
		!strings.Contains(intro.Markdown, "![](/files/"+rev.Files[0].ID+")") {
		t.Errorf("introduction %+v, files %+v", intro, rev.Files)
	}
	_ = spaceID
}

func mustB64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFolderImportChecks covers who may export and import, and bad
// folders: readers export, only editors import, another organization's key
// is not found, a locked space refuses, paths leaving the folder are
// refused, and the contract's website form still answers as before.
func TestFolderImportChecks(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	reader := e.addUser(t, "read", "Rita Reader")
	e.export(t, reader.token, "/v1/spaces/"+spaceID+"/content/export", "")
	e.export(t, reader.token, cr+"/content/export", "")
	outsider := e.outsider(t)
	e.call(t, outsider.token, "GET", "/v1/spaces/"+spaceID+"/content/export", nil).wantError(t, http.StatusNotFound)

	good := zipOf(t, map[string]string{"README.md": "# Home\n"})
	key := e.upload(t, e.admin.token, e.org, "a.zip", good)
	body := map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}
	e.call(t, reader.token, "POST", cr+"/content/import", body).wantError(t, http.StatusForbidden)
	e.call(t, reader.token, "POST", "/v1/orgs/"+e.org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "a.zip", "type": "application/zip", "size": 10}, "kind": "import_file"}).wantError(t, http.StatusForbidden)

	// Another organization's key is not found, even to its admin.
	otherSpace := func() string {
		var sp struct{ ID string }
		var orgs struct{ Items []struct{ ID string } }
		e.call(t, outsider.token, "GET", "/v1/orgs", nil).want(t, http.StatusOK).Decode(t, &orgs)
		e.call(t, outsider.token, "POST", "/v1/orgs/"+orgs.Items[0].ID+"/spaces", map[string]any{"title": "Theirs"}).want(t, http.StatusCreated).Decode(t, &sp)
		return sp.ID
	}()
	e.call(t, outsider.token, "POST", "/v1/spaces/"+otherSpace+"/content/import", body).wantError(t, http.StatusNotFound, "source.files[0]")

	for name, files := range map[string]map[string]string{
		"../evil.md":  {"../evil.md": "# Evil\n"},
		"/etc/passwd": {"/etc/passwd": "x"},
	} {
		k := e.upload(t, e.admin.token, e.org, "bad.zip", zipOf(t, files))
		e.call(t, e.admin.token, "POST", cr+"/content/import", map[string]any{"source": map[string]any{"type": "file", "files": []string{k}}}).
			wantError(t, http.StatusBadRequest, name)
	}
	e.call(t, e.admin.token, "POST", cr+"/content/import", map[string]any{"source": map[string]any{"type": "file", "files": []string{}}}).
		wantError(t, http.StatusBadRequest, "source.files")
	e.call(t, e.admin.token, "POST", cr+"/content/import", map[string]any{"source": map[string]any{"type": "ftp"}}).
		wantError(t, http.StatusBadRequest, "source.type")
	e.call(t, e.admin.token, "POST", cr+"/content/import", map[string]any{"source": "file", "url": "https://example.com"}).
		wantError(t, http.StatusBadRequest, "source")

	// A markdown file alone imports as a page.
	md := e.upload(t, e.admin.token, e.org, "notes.md", []byte("# Notes\n\nHello.\n"))
	e.call(t, e.admin.token, "POST", cr+"/content/import", map[string]any{"source": map[string]any{"type": "file", "files": []string{md}}}).
		want(t, http.StatusOK)
	if rev := e.revision(t, cr+"/content"); !slices.Equal(titles(rev.Pages), []string{"Notes"}) {
		t.Errorf("pages after importing notes.md: %v", titles(rev.Pages))
	}

	// A refused import into the space leaves no change request behind.
	bad := e.upload(t, e.admin.token, e.org, "bad.zip", zipOf(t, map[string]string{"README.md": "---\nhidden: maybe\n---\n# X\n"}))
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/content/import", map[string]any{"source": map[string]any{"type": "file", "files": []string{bad}}}).
		wantError(t, http.StatusBadRequest, "README.md: front matter")
	if n := crNumbers(t, e, e.admin.token, "/v1/spaces/"+spaceID+"/change-requests?status=draft"); len(n) != 1 {
		t.Errorf("change requests after a refused import: %v", n)
	}

	e.call(t, e.admin.token, "PATCH", "/v1/spaces/"+spaceID, map[string]any{"editMode": "locked"}).want(t, http.StatusOK)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/content/import", body).wantError(t, http.StatusForbidden, "locked")
	e.call(t, e.admin.token, "POST", cr+"/content/import", body).wantError(t, http.StatusForbidden, "locked")
}

// TestFolderImportKeepsIDs exports a change request, edits a page of the
// folder and imports it back: the page keeps its id and gets the edit.
func TestFolderImportKeepsIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr, insertPage("a", "# A\n\nOne.\n"), insertPage("b", "# B\n\nSee [a](./a.md).\n")).want(t, http.StatusOK)
	before := e.revision(t, cr+"/content")
	folder := e.export(t, e.admin.token, cr+"/content/export", "")
	folder["b.md"] = strings.Replace(folder["b.md"], "See", "Now see", 1)
	key := e.upload(t, e.admin.token, e.org, "f.zip", zipOf(t, folder))
	e.call(t, e.admin.token, "POST", cr+"/content/import", map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).
		want(t, http.StatusOK)
	after := e.revision(t, cr+"/content")
	if cmIDs(after.Pages)["B"] != cmIDs(before.Pages)["B"] || cmIDs(after.Pages)["A"] != cmIDs(before.Pages)["A"] {
		t.Fatalf("ids changed: %v → %v", cmIDs(before.Pages), cmIDs(after.Pages))
	}
	if want := "Now see [a](/pages/" + cmIDs(before.Pages)["A"] + ").\n"; after.Pages[1].Markdown != want {
		t.Errorf("b %q, want %q", after.Pages[1].Markdown, want)
	}
}

// TestUploadURL: the signed URL takes at most the size declared, only with
// its token; the request is checked as the reference has it.
func TestUploadURL(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var u struct{ URL, Key string }
	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "a.zip", "type": "application/zip", "size": 4}, "kind": "import_file"}).
		want(t, http.StatusCreated).Decode(t, &u)
	path := strings.TrimPrefix(u.URL, testPublicURL)
	e.call(t, "", "PUT", strings.Replace(path, "token=", "token=x", 1), []byte("1234")).wantError(t, http.StatusForbidden, "not valid")
	e.call(t, "", "PUT", "/v1/storage/uploads/upload-nothing?token=x", []byte("1234")).wantError(t, http.StatusForbidden, "not valid")
	e.call(t, "", "PUT", path, []byte("12345")).wantError(t, http.StatusRequestEntityTooLarge, "4 bytes")
	// Not uploaded yet: the key names nothing.
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+e.crSpace(t)+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{u.Key}}}).wantError(t, http.StatusNotFound, "source.files[0]")
	for _, bad := range []map[string]any{
		{"kind": "import_file"},
		{"file": map[string]any{"name": "a.zip", "type": "application/zip", "size": 100 << 20}, "kind": "import_file"},
		{"file": map[string]any{"name": "a.zip", "type": "application/zip", "size": 1.5}, "kind": "import_file"},
		{"file": map[string]any{"name": "a.zip", "type": "application/zip", "size": 1}, "kind": "organization_file"},
	} {
		res := e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/storage/upload", bad)
		if res.Status != http.StatusBadRequest && res.Status != http.StatusRequestEntityTooLarge {
			t.Errorf("%v: status %d", bad, res.Status)
		}
	}
	outsider := e.outsider(t)
	e.call(t, outsider.token, "POST", "/v1/orgs/"+e.org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "a.zip", "type": "application/zip", "size": 4}, "kind": "import_file"}).wantError(t, http.StatusNotFound)
}

// TestFolderRoundTrip1000Pages exports a thousand-page space through the
// API, imports it into an empty space and exports that: the same folder.
func TestFolderRoundTrip1000Pages(t *testing.T) {
	if testing.Short() {
		t.Skip("a thousand pages")
	}
	t.Parallel()
	e := newEnv(t)
	src, cr := e.newChangeRequest(t)
	crID := cr[strings.LastIndex(cr, "/")+1:]
	_, err := e.db.EditChangeRequest(t.Context(), src, crID, e.admin.id, func(now time.Time, head *content.Tree) (*content.Tree, error) {
		tr := &content.Tree{Pages: map[string]*content.Page{}}
		var section string
		for i := range 1000 {
			id := fmt.Sprintf("page%04d", i)
			tr.Pages[id] = &content.Page{ID: id, Kind: content.KindDocument, Title: fmt.Sprintf("Page %d", i), Slug: fmt.Sprintf("page-%d", i),
				Markdown: fmt.Sprintf("See [page %d](/pages/page%04d#part).\n\n## Part\n\nText.\n", (i*7)%1000, (i*7)%1000)}
			if i%10 == 0 {
				tr.Root, section = append(tr.Root, id), id
			} else {
				tr.Pages[section].Children = append(tr.Pages[section].Children, id)
			}
		}
		return tr, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	e.call(t, e.admin.token, "POST", cr+"/merge", nil).want(t, http.StatusOK)
	first := e.export(t, e.admin.token, "/v1/spaces/"+src+"/content/export", "")
	if len(first) != 1002 {
		t.Fatalf("%d files", len(first))
	}
	dst := e.crSpace(t)
	key := e.upload(t, e.admin.token, e.org, "big.zip", zipOf(t, first))
	var out importOut
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+dst+"/content/import",
		map[string]any{"source": map[string]any{"type": "file", "files": []string{key}}}).want(t, http.StatusOK).Decode(t, &out)
	if out.ImportedResources != 1000 {
		t.Errorf("import %+v", out)
	}
	if diff := cmp.Diff(first, e.export(t, e.admin.token, "/v1/spaces/"+dst+"/content/export", "")); diff != "" {
		t.Fatalf("second export differs:\n%s", diff)
	}
	if diff := cmp.Diff(e.treeShape(t, src), e.treeShape(t, dst)); diff != "" {
		t.Fatalf("trees differ:\n%s", diff)
	}
}
