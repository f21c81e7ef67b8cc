package api_test

import (
	"net/http"
	"testing"
)

// Helpers shared by the content tests.

type pageOut struct {
	ID          string    `json:"id"`
	Title       string    `json:"title"`
	Slug        string    `json:"slug"`
	Path        string    `json:"path"`
	Description string    `json:"description"`
	Markdown    string    `json:"markdown"`
	Document    any       `json:"document"`
	Pages       []pageOut `json:"pages"`
	Git         *struct {
		OID  string `json:"oid"`
		Path string `json:"path"`
	} `json:"git"`
}

type fileOut struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
	Size        int    `json:"size"`
	Dimensions  *struct {
		Width  int `json:"width"`
		Height int `json:"height"`
	} `json:"dimensions"`
}

type revisionOut struct {
	ID      string    `json:"id"`
	Parents []string  `json:"parents"`
	Type    string    `json:"type"`
	Pages   []pageOut `json:"pages"`
	Files   []fileOut `json:"files"`
}

// newChangeRequest creates a space and a change request in it.
func (e *env) newChangeRequest(t *testing.T) (spaceID, crPath string) {
	t.Helper()
	spaceID = e.crSpace(t)
	var c crOut
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Edits"}).want(t, http.StatusCreated).Decode(t, &c)
	return spaceID, "/v1/spaces/" + spaceID + "/change-requests/" + c.ID
}

// author posts a batch of changes to a change request as token's holder.
func (e *env) author(t *testing.T, token, crPath string, changes ...map[string]any) *response {
	t.Helper()
	return e.call(t, token, "POST", crPath+"/content", map[string]any{"changes": changes})
}

func insertPage(ref, markdown string, extra ...any) map[string]any {
	c := map[string]any{"operation": "insert_page", "document": map[string]any{"markdown": markdown}}
	if ref != "" {
		c["ref"] = ref
	}
	for i := 0; i+1 < len(extra); i += 2 {
		c[extra[i].(string)] = extra[i+1]
	}
	return c
}

func (e *env) revision(t *testing.T, path string) revisionOut {
	t.Helper()
	var rev revisionOut
	e.call(t, e.admin.token, "GET", path, nil).want(t, http.StatusOK).Decode(t, &rev)
	return rev
}

func titles(pages []pageOut) []string {
	out := []string{}
	for _, p := range pages {
		out = append(out, p.Title)
	}
	return out
}

func TestAuthorAndMergeChangeRequest(t *testing.T) {
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	before := e.revision(t, "/v1/spaces/"+spaceID+"/content")

	e.author(t, e.admin.token, cr,
		insertPage("intro", "# Introduction\n\nStart with [install](./install.md).\n"),
		insertPage("install", "---\ndescription: Set it up\n---\n# Install\n\nRun it.\n"),
	).want(t, http.StatusOK)

	rev := e.revision(t, cr+"/content")
	if got := titles(rev.Pages); len(got) != 2 || got[0] != "Introduction" || got[1] != "Install" {
		t.Fatalf("change request pages %v", got)
	}
	intro, install := rev.Pages[0], rev.Pages[1]
	if want := "Start with [install](/pages/" + install.ID + ").\n"; intro.Markdown != want {
		t.Errorf("intro markdown %q, want %q", intro.Markdown, want)
	}
	if install.Description != "Set it up" || install.Slug != "install" || install.Path != "install" {
		t.Errorf("install page %+v", install)
	}
	if rev.Parents[0] != before.ID || rev.Type != "edits" {
		t.Errorf("revision parents %v type %s; want [%s] edits", rev.Parents, rev.Type, before.ID)
	}
	// The space is unchanged until the merge.
	if live := e.revision(t, "/v1/spaces/"+spaceID+"/content"); len(live.Pages) != 0 {
		t.Fatalf("space has %d pages before the merge", len(live.Pages))
	}

	var merged struct{ Revision, Result string }
	e.call(t, e.admin.token, "POST", cr+"/merge", nil).want(t, http.StatusOK).Decode(t, &merged)
	if merged.Result != "merge" {
		t.Errorf("result %q", merged.Result)
	}
	live := e.revision(t, "/v1/spaces/"+spaceID+"/content")
	if live.ID != merged.Revision || live.Type != "merge" || len(live.Pages) != 2 {
		t.Fatalf("space after merge: %+v", live)
	}
	var c crOut
	e.call(t, e.admin.token, "GET", cr, nil).want(t, http.StatusOK).Decode(t, &c)
	if c.Status != "merged" {
		t.Errorf("status %q after merge", c.Status)
	}
	var page pageOut
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/content/path/install", nil).want(t, http.StatusOK).Decode(t, &page)
	if page.ID != install.ID || page.Git == nil || page.Git.Path != "install.md" {
		t.Errorf("page by path: %+v", page)
	}
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/content/page/"+intro.ID+"?format=document", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/revisions/"+live.ID+"/changes", nil).want(t, http.StatusOK)
	e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/links", nil).want(t, http.StatusOK)
	// Merging again is refused.
	e.call(t, e.admin.token, "POST", cr+"/merge", nil).wantError(t, http.StatusBadRequest, "merged")
}
