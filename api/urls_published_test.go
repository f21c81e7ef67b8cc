package api_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// inReference checks the answer against the whole reference (the served
// copy): PublishedSiteContent, SearchAIRecommendedQuestionStream.
func inReference(method, path string) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		if err := fullReference(t).Check(method, strings.TrimPrefix(strings.SplitN(path, "?", 2)[0], "/v1"), r.Status, r.Body); err != nil {
			t.Errorf("contract: %v", err)
		}
	}
}

// canonicalLink is the href of the <link rel="canonical"> of the page the
// published sites serve at target (a path, or an absolute URL naming the
// host, and port, the visitor reached), to an anonymous visitor.
func (e *siteEnv) canonicalLink(t *testing.T, target string) string {
	t.Helper()
	rec := httptest.NewRecorder()
	e.sites.Wrap(http.NotFoundHandler()).ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), "GET", target, nil))
	m := regexp.MustCompile(`<link rel="canonical" href="([^"]*)">`).FindStringSubmatch(rec.Body.String())
	if rec.Code != http.StatusOK || m == nil {
		t.Fatalf("GET %s: %d, no canonical link in %.300s", target, rec.Code, rec.Body)
	}
	return m[1]
}

// TestPublishedLookupAsTheRenderer: urls/published answers as GitBook's
// renderer reads it (issue 30): complete only once no further segment
// could name another section or site space, a revision only for previews
// of a change request or revision of the site space's space, and the
// canonical URL the site's own pages link.
func TestPublishedLookupAsTheRenderer(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, guide, apiSpace := publishedSearchSite(t, e)
	var sections listOut[siteSection]
	e.call(t, e.admin.token, "GET", sitePath(e.env, siteID, "/sections"), nil).want(t, http.StatusOK).Decode(t, &sections)
	var apiPath string
	for _, sec := range sections.Items {
		if !sec.Default {
			apiPath = sec.Path
		}
	}
	e.cmSeed(t, guide, insertPage("upgrade", "# Upgrading\n\nUpgrade it.\n"))
	var cr, otherCR cmCR
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+guide+"/change-requests", map[string]any{"subject": "Edits"}).want(t, http.StatusCreated).Decode(t, &cr)
	e.call(t, e.admin.token, "POST", "/v1/spaces/"+apiSpace+"/change-requests", map[string]any{"subject": "Edits"}).want(t, http.StatusCreated).Decode(t, &otherCR)
	content := e.revision(t, "/v1/spaces/"+guide+"/content")
	if len(content.Pages) != 3 { // Installing, Pro installer, Upgrading
		t.Fatalf("fixture: pages %+v", content.Pages)
	}
	current, first, page := content.ID, content.Pages[0].Path, content.Pages[2].Path
	if apiPath == "" || cr.Revision == "" || current == "" || page == "" {
		t.Fatalf("fixture: section path %q, change request %+v, revision %q", apiPath, cr, current)
	}

	root := testPublicURL + "/sites/" + siteID + "/"
	base := "/sites/" + siteID + "/"
	get := func(u string) string { return "/v1/urls/published?url=" + url.QueryEscape(u) }
	ok := func(path string, checks ...check) []check {
		return append([]check{inReference("GET", path)}, checks...)
	}
	var scenarios []scenario
	for _, tc := range []struct {
		name   string
		url    string
		status int
		checks []check
		as     user
	}{
		{"site root: a section may follow", root, 0, []check{field("complete", false), field("pathname", ""), absent("revision"), absent("preview")}, anonymous},
		{"a page of the default section", root + page, 0, []check{field("complete", true), field("pathname", page),
			field("canonicalUrl", root+page), absent("revision"), absent("changeRequest")}, anonymous},
		{"the first page, served at the root", root + first, 0, []check{field("complete", true), field("pathname", first),
			field("canonicalUrl", root), absent("revision")}, anonymous},
		{"the other section", root + apiPath, 0, []check{field("complete", true), field("basePath", base+apiPath+"/"), field("space", apiSpace)}, anonymous},
		{"a change request's preview", root + "~/changes/" + cr.ID + "/" + page, 0, []check{field("complete", true), field("preview", true),
			field("changeRequest", cr.ID), field("revision", cr.Revision), field("space", guide), field("pathname", page),
			field("basePath", base+"~/changes/"+cr.ID+"/"), field("canonicalUrl", root+page)}, e.admin},
		{"a change request's preview, asked by no member", root + "~/changes/" + cr.ID + "/" + page, http.StatusNotFound, nil, anonymous},
		{"a revision's preview", root + "~/revisions/" + current + "/", 0, []check{field("preview", true), field("revision", current),
			absent("changeRequest"), field("pathname", ""), field("basePath", base+"~/revisions/"+current+"/")}, e.admin},
		{"a revision's preview, asked by no member", root + "~/revisions/" + current + "/", http.StatusNotFound, nil, anonymous},
		{"another space's change request", root + "~/changes/" + otherCR.ID + "/" + page, http.StatusNotFound, nil, e.admin},
		{"a change request by number", root + "~/changes/1/install", http.StatusNotFound, nil, e.admin},
		{"no such revision", root + "~/revisions/nope/install", http.StatusNotFound, nil, e.admin},
	} {
		path := get(tc.url)
		s := scenario{name: tc.name, as: tc.as, path: path, status: tc.status, errs: []string{"no published content"}, want: tc.checks}
		if tc.status == 0 {
			s.want = ok(path, tc.checks...)
		}
		scenarios = append(scenarios, s)
	}
	// By POST too.
	scenarios = append(scenarios, scenario{name: "POST the site root", as: anonymous, method: "POST", path: "/v1/urls/published",
		body: map[string]any{"url": root}, want: []check{field("complete", false), absent("revision")}})
	run(t, e.env, scenarios)

	// The lookup's canonical URL is the one the site's page links, also
	// when the address looked up names a port the public URL does not (a
	// site without a hostname, reached through a proxy or a renderer on
	// another port): the site's address is the public URL's, port and all.
	for _, origin := range []string{testPublicURL, "http://quire.test:8080"} {
		for _, p := range []string{"", first, page, apiPath} {
			var got struct{ CanonicalURL string }
			e.call(t, "", "GET", get(origin+base+p), nil).want(t, http.StatusOK).Decode(t, &got)
			if link := e.canonicalLink(t, origin+base+p); link != got.CanonicalURL || !strings.HasPrefix(link, root) {
				t.Errorf("%s: canonicalUrl %q, the site links %q; want both under %s", origin+base+p, got.CanonicalURL, link, root)
			}
		}
	}
}

// TestSiteRecommendedQuestions: GET SITE/ask/questions streams questions
// drawn from the site's spaces, or from one site space's.
func TestSiteRecommendedQuestions(t *testing.T) {
	t.Parallel()
	e := newSiteEnv(t)
	siteID, _, apiSpace := publishedSearchSite(t, e)
	var sss listOut[siteSiteSpace]
	e.call(t, e.admin.token, "GET", sitePath(e.env, siteID, "/site-spaces"), nil).want(t, http.StatusOK).Decode(t, &sss)
	var apiSS string
	for _, ss := range sss.Items {
		if ss.Space.ID == apiSpace {
			apiSS = ss.ID
		}
	}
	path := sitePath(e.env, siteID, "/ask/questions")
	questions := func(want ...string) check {
		return func(t testing.TB, r *response) {
			t.Helper()
			var got []string
			for ev := range strings.SplitSeq(strings.TrimSpace(string(r.Body)), "\n\n") {
				if data, ok := strings.CutPrefix(ev, "data: "); ok {
					got = append(got, data)
				}
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("events %q, want %q", got, want)
			}
		}
	}
	run(t, e.env, []scenario{
		{name: "every site space", path: path, want: []check{questions(
			`{"question":"What does the documentation say about Installing?"}`,
			`{"question":"What does the documentation say about Reference?"}`)}},
		{name: "one site space", path: path + "?siteSpaceId=" + apiSS, want: []check{questions(
			`{"question":"What does the documentation say about Reference?"}`)}},
		{name: "by space (deprecated)", path: path + "?spaceId=" + apiSpace, want: []check{questions(
			`{"question":"What does the documentation say about Reference?"}`)}},
		{name: "an unknown site space", path: path + "?siteSpaceId=nope", want: []check{questions()}},
		{name: "not a member", as: e.outsider(t), path: path, status: http.StatusNotFound},
	})
}
