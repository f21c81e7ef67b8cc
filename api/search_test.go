package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

type searchHitOut struct {
	ID          string  `json:"id"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Path        string  `json:"path"`
	Score       float64 `json:"score"`
	Rank        int     `json:"rank"`
	ResultType  string  `json:"resultType"`
	Sections    []struct {
		ID         string `json:"id"`
		Title      string `json:"title"`
		Path       string `json:"path"`
		ResultType string `json:"resultType"`
		Body       string `json:"body"`
		URLs       struct {
			App string `json:"app"`
		} `json:"urls"`
	} `json:"sections"`
	Ancestors []struct {
		Title string `json:"title"`
	} `json:"ancestors"`
	URLs struct {
		App string `json:"app"`
	} `json:"urls"`
}

func searchFor(t *testing.T, e *env, token, spaceID, query, extra string) listOut[searchHitOut] {
	t.Helper()
	var out listOut[searchHitOut]
	e.call(t, token, "GET", "/v1/spaces/"+spaceID+"/search?query="+url.QueryEscape(query)+extra, nil).want(t, http.StatusOK).Decode(t, &out)
	return out
}

// TestSearchSpace searches a space's current content end to end: ranked
// pages with their matching sections, paths, ancestors and links, paged,
// following merges, and only for those who may read the space.
func TestSearchSpace(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID := e.crSpace(t)
	ids := e.cmSeed(t, spaceID,
		insertPage("guides", "# Guides\n\nHow to use the café app.\n"),
		insertPage("install", "# Installing Quire\n\nDownload it.\n\n## On Linux\n\nRun the installer as root.\n\n## On macOS\n\nDrag it.\n", "into", "guides"),
		insertPage("hooks", "# Webhooks\n\nQuire calls your server when pages change. "+strings.Repeat("Padding words here. ", 40)+"Retries happen thrice.\n"),
	)
	if len(ids) != 3 {
		t.Fatalf("seeded %v", ids)
	}

	// "installer" is in a section, and stems as the title's "installing".
	res := searchFor(t, e, e.admin.token, spaceID, "installer", "")
	if res.Count != 1 || len(res.Items) != 1 {
		t.Fatalf("installer: %+v", res)
	}
	hit := res.Items[0]
	if hit.ID != ids["Installing Quire"] || hit.Title != "Installing Quire" || hit.Path != "guides/installing-quire" ||
		hit.Rank != 1 || hit.Score <= 0 || hit.ResultType != "page" ||
		len(hit.Ancestors) != 1 || hit.Ancestors[0].Title != "Guides" || !strings.HasSuffix(hit.URLs.App, "/s/"+spaceID+"/guides/installing-quire") {
		t.Errorf("installer hit %+v", hit)
	}
	if len(hit.Sections) != 1 || hit.Sections[0].ID != "on-linux" || hit.Sections[0].Title != "On Linux" ||
		hit.Sections[0].Path != "guides/installing-quire#on-linux" || hit.Sections[0].Body != "Run the installer as root." ||
		!strings.HasSuffix(hit.Sections[0].URLs.App, "#on-linux") {
		t.Errorf("installer sections %+v", hit.Sections)
	}
	if got := searchFor(t, e, e.admin.token, spaceID, "root", "").Items; len(got) != 1 || got[0].ResultType != "section" ||
		len(got[0].Sections) != 1 || got[0].Sections[0].ResultType != "section" {
		t.Errorf("root: %+v, want the section", got)
	}

	// A title ranks above a text; stemming finds "installing" from "install".
	res = searchFor(t, e, e.admin.token, spaceID, "QUIRE", "")
	if res.Count != 2 || res.Items[0].ID != ids["Installing Quire"] || res.Items[1].ID != ids["Webhooks"] {
		t.Errorf("quire: %+v", res.Items)
	}
	if got := searchFor(t, e, e.admin.token, spaceID, "install", "").Items; len(got) != 1 || got[0].ResultType != "page" {
		t.Errorf("install: %+v, want the page, found by its title", got)
	}
	// Accents do not matter either way.
	if got := searchFor(t, e, e.admin.token, spaceID, "cafe", "").Items; len(got) != 1 || got[0].ID != ids["Guides"] {
		t.Errorf("cafe: %+v", got)
	}
	// A long section shows the text around the match.
	got := searchFor(t, e, e.admin.token, spaceID, "retries", "").Items
	if len(got) != 1 || len(got[0].Sections) != 1 || !strings.HasPrefix(got[0].Sections[0].Body, "…") ||
		!strings.Contains(got[0].Sections[0].Body, "Retries happen thrice.") {
		t.Errorf("retries: %+v", got)
	}
	if got := searchFor(t, e, e.admin.token, spaceID, "nothing-like-this", "").Items; len(got) != 0 {
		t.Errorf("no match: %+v", got)
	}

	// Pages of results.
	first := searchFor(t, e, e.admin.token, spaceID, "quire", "&limit=1")
	if len(first.Items) != 1 || first.Count != 2 || first.Next == nil {
		t.Fatalf("first page %+v", first)
	}
	second := searchFor(t, e, e.admin.token, spaceID, "quire", "&limit=1&page="+first.Next.Page)
	if len(second.Items) != 1 || second.Next != nil || second.Items[0].ID == first.Items[0].ID || second.Items[0].Rank != 2 {
		t.Errorf("second page %+v after %+v", second, first)
	}

	// A merge is searched at once.
	cr := e.cmNewCR(t, e.admin.token, spaceID)
	e.author(t, e.admin.token, cr, map[string]any{"operation": "update_page", "page": ids["Webhooks"],
		"document": map[string]any{"markdown": "Now about events.\n"}}).want(t, http.StatusOK)
	e.cmMerge(t, e.admin.token, cr)
	if got := searchFor(t, e, e.admin.token, spaceID, "retries", "").Items; len(got) != 0 {
		t.Errorf("retries after the edit: %+v", got)
	}
	if got := searchFor(t, e, e.admin.token, spaceID, "events", "").Items; len(got) != 1 {
		t.Errorf("events after the edit: %+v", got)
	}

	// Readers search; others do not see the space.
	reader := e.addUser(t, "read", "Rita Reader")
	if got := searchFor(t, e, reader.token, spaceID, "events", "").Items; len(got) != 1 {
		t.Errorf("reader: %+v", got)
	}
	e.call(t, e.outsider(t).token, "GET", "/v1/spaces/"+spaceID+"/search?query=events", nil).wantError(t, http.StatusNotFound)

	// Bad queries.
	for _, q := range []string{"", "?query=", "?query=" + strings.Repeat("a", 513), "?query=x&limit=0", "?query=x&page=zzz"} {
		e.call(t, e.admin.token, "GET", "/v1/spaces/"+spaceID+"/search"+q, nil).wantError(t, http.StatusBadRequest)
	}
}
