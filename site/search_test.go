package site_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// siteDocs is a published site of three sections for the search, ask and MCP
// tests: Guide (the default section), Reference and Internal, which a
// condition hides from anonymous visitors. Guide holds a hidden page and a
// page (with a child) whose condition anonymous visitors do not meet.
type siteDocs struct {
	id, url   string // the site's id and published URL
	path      string // the path of its published URL, as search and ask answer URLs
	reference string // the path of the Reference section
	guide     string // the id of the Guide space
	internal  string // the id of the Internal space
}

// hiddenCondition is met by no anonymous visitor, whether conditions are
// evaluated or, as before, hide all they guard from non-members.
const hiddenCondition = `visitor.claims.plan == "enterprise"`

func newSiteDocs(t *testing.T, e *env, visibility string) siteDocs {
	t.Helper()
	var d siteDocs
	d.guide = e.space(t, "Guide",
		page{ref: "intro", title: "Introduction", markdown: "Welcome to the guide.\n"},
		page{ref: "install", title: "Install", markdown: "Run the installer.\n\n## Upgrading\n\nUpgrade with the flux capacitor.\n"},
	)
	e.changeSpace(t, d.guide,
		map[string]any{"operation": "insert_page", "title": "Secret", "hidden": true,
			"document": map[string]any{"markdown": "The zanzibar key opens the vault.\n"}},
		map[string]any{"operation": "insert_page", "ref": "beta", "title": "Beta", "condition": hiddenCondition,
			"document": map[string]any{"markdown": "The quokka feature is in beta.\n"}},
		map[string]any{"operation": "insert_page", "into": "beta", "title": "Beta details",
			"document": map[string]any{"markdown": "More about the platypus release.\n"}},
	)
	reference := e.space(t, "Reference",
		page{title: "Deploying", markdown: "Deploying takes a minute.\n\n## Kubernetes\n\nDeploy the chart with helm to kubernetes clusters.\n"},
	)
	d.internal = e.space(t, "Internal", page{title: "Plans", markdown: "The wombat plan is internal.\n"})
	d.id, d.url = e.site(t, "Docs", visibility, d.guide)
	d.path = strings.TrimPrefix(d.url, e.srv.URL)
	site := "/v1/orgs/" + e.org + "/sites/" + d.id
	var sec struct{ ID, Path string }
	e.api(t, "POST", site+"/sections", map[string]any{"spaceId": reference}, http.StatusCreated, &sec)
	d.reference = sec.Path
	e.api(t, "POST", site+"/sections", map[string]any{"spaceId": d.internal}, http.StatusCreated, &sec)
	e.api(t, "PATCH", site+"/sections/"+sec.ID, map[string]any{"condition": hiddenCondition}, http.StatusOK, nil)
	return d
}

// changeSpace writes changes to a space through a merged change request.
func (e *env) changeSpace(t testing.TB, spaceID string, changes ...map[string]any) {
	t.Helper()
	var cr struct{ ID string }
	e.api(t, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Change"}, http.StatusCreated, &cr)
	crPath := "/v1/spaces/" + spaceID + "/change-requests/" + cr.ID
	e.api(t, "POST", crPath+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	e.api(t, "POST", crPath+"/merge", nil, http.StatusOK, nil)
}

// getJSON fetches u anonymously and decodes its JSON answer into out,
// failing unless it answers want.
func getJSON(t testing.TB, u string, want int, out any) {
	t.Helper()
	status, body := get(t, u)
	if status != want {
		t.Fatalf("GET %s: %d, want %d: %s", u, status, want, body)
	}
	if err := json.Unmarshal([]byte(body), out); err != nil {
		t.Fatalf("GET %s: decode %s: %v", u, body, err)
	}
}

type searchResult struct {
	Title, URL, Snippet, Space, Section, Heading string
}

func siteSearch(t testing.TB, site, q string) []searchResult {
	t.Helper()
	var out struct{ Results []searchResult }
	getJSON(t, site+"~search?q="+url.QueryEscape(q), http.StatusOK, &out)
	return out.Results
}

func TestSearch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "public")
	for _, tc := range []struct {
		q    string
		want []searchResult
	}{
		{"installer", []searchResult{{Title: "Install", URL: d.path + "install", Snippet: "Run the installer.", Space: "Guide", Section: "Docs"}}},
		{"flux capac", []searchResult{{Title: "Install", URL: d.path + "install#upgrading", Snippet: "Upgrade with the flux capacitor.",
			Space: "Guide", Section: "Docs", Heading: "Upgrading"}}},
		{"kubernetes helm", []searchResult{{Title: "Deploying", URL: d.path + d.reference + "/deploying#kubernetes",
			Snippet: "Deploy the chart with helm to kubernetes clusters.", Space: "Reference", Section: "Reference", Heading: "Kubernetes"}}},
		{"zanzibar", nil}, // a hidden page
		{"quokka", nil},   // a page whose condition the visitor does not meet
		{"platypus", nil}, // below it
		{"wombat", nil},   // in a section whose condition the visitor does not meet
		{"?!", nil},       // no words
	} {
		if diff := cmp.Diff(tc.want, siteSearch(t, d.url, tc.q), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("search %q (-want +got):\n%s", tc.q, diff)
		}
	}
	// What the site hides is in the index: the API finds it for members.
	for space, q := range map[string]string{d.guide: "platypus", d.internal: "wombat"} {
		var found struct{ Items []struct{ Title string } }
		e.api(t, "GET", "/v1/spaces/"+space+"/search?query="+q, nil, http.StatusOK, &found)
		if len(found.Items) != 1 {
			t.Errorf("API search %q: %+v, want one page", q, found.Items)
		}
	}
}

func TestSearchRefusesBadQueries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "public")
	type errorJSON struct {
		Error struct {
			Code    int
			Message string
		}
	}
	for _, tc := range []struct{ path, message string }{
		{"~search", "q: is required"},
		{"~search?q=", "q: is required"},
		{"~search?q=" + strings.Repeat("é", 257), "q: must be at most 256 characters"},
		{"~ask", "q: is required"},
		{"~ask?q=" + strings.Repeat("a", 1001), "q: must be at most 1000 characters"},
	} {
		var got errorJSON
		getJSON(t, d.url+tc.path, http.StatusBadRequest, &got)
		if got.Error.Code != http.StatusBadRequest || got.Error.Message != tc.message {
			t.Errorf("%s: %+v, want 400 %q", tc.path, got, tc.message)
		}
	}
	resp, err := http.Post(d.url+"~search?q=guide", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("POST ~search: %d, Allow %q; want 405, GET, HEAD", resp.StatusCode, resp.Header.Get("Allow"))
	}
}

type askAnswer struct {
	Answer, HTML string
	Sources      []struct{ Title, URL string }
}

func TestAsk(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "public")
	var got askAnswer
	getJSON(t, d.url+"~ask?q="+url.QueryEscape("How do I deploy to kubernetes?"), http.StatusOK, &got)
	source := d.path + d.reference + "/deploying#kubernetes"
	if diff := cmp.Diff([]struct{ Title, URL string }{{"Deploying › Kubernetes", source}}, got.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
	if !strings.Contains(got.Answer, "> Deploy the chart with helm to kubernetes clusters.") || !strings.Contains(got.Answer, "]("+source+")") {
		t.Errorf("answer %q: want the quote, linked to %s", got.Answer, source)
	}
	if !strings.Contains(got.HTML, "<blockquote>") || !strings.Contains(got.HTML, `href="`+source+`"`) {
		t.Errorf("html %q: want a blockquote and a link to %s", got.HTML, source)
	}
	// What the visitor does not see answers nothing.
	for _, q := range []string{"What is the quokka feature?", "platypus release", "wombat plan", "zanzibar key"} {
		var got askAnswer
		getJSON(t, d.url+"~ask?q="+url.QueryEscape(q), http.StatusOK, &got)
		if len(got.Sources) != 0 || strings.Contains(got.Answer, "beta") || strings.Contains(got.Answer, "internal") || strings.Contains(got.Answer, "vault") {
			t.Errorf("ask %q: %+v, want no sources", q, got)
		}
	}
}

func TestSearchAndAskOfShareLinkSite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "share-link")
	key := e.shareKey(t, d.id)
	for _, path := range []string{"~search?q=installer", "~ask?q=installer", "~search?q=installer&share=wrong"} {
		if status, body := get(t, d.url+path); status != http.StatusNotFound || strings.Contains(body, "install") {
			t.Errorf("GET %s without the key: %d %q, want 404", path, status, body)
		}
	}
	var found struct{ Results []searchResult }
	getJSON(t, d.url+"~search?q=installer&share="+key, http.StatusOK, &found)
	if results := found.Results; len(results) != 1 || results[0].URL != d.path+"install" {
		t.Errorf("search with the key: %+v, want the Install page", found.Results)
	}
	var got askAnswer
	getJSON(t, d.url+"~ask?q=installer&share="+key, http.StatusOK, &got)
	if len(got.Sources) != 1 || got.Sources[0].URL != d.path+"install" {
		t.Errorf("ask with the key: %+v, want the Install page as source", got)
	}
}

// A search result's anchor is the id its heading has on the page, whatever
// letters the heading holds.
func TestSearchAnchorsMatchHeadingIDs(t *testing.T) {
	e := newEnv(t)
	sp := e.space(t, "Guide", page{title: "Intro", markdown: "Hello.\n\n## Überblick der_Zwerge\n\nThe wyvern lives here.\n"})
	_, u := e.site(t, "Docs", "public", sp)
	var got struct{ Results []searchResult }
	getJSON(t, u+"~search?q=wyvern", http.StatusOK, &got)
	if len(got.Results) != 1 {
		t.Fatalf("results %+v", got.Results)
	}
	page, anchor, ok := strings.Cut(got.Results[0].URL, "#")
	if !ok {
		t.Fatalf("result URL %q has no anchor", got.Results[0].URL)
	}
	if _, body := get(t, e.srv.URL+page); !strings.Contains(body, `id="`+anchor+`"`) {
		t.Errorf("page %s has no heading with id %q", page, anchor)
	}
}
