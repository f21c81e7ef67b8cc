package wire_test

import (
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// validator is what api's readRequest takes: a body that checks itself.
type validator interface{ Validate() error }

// requestCase is one body decoded into a new request value and checked:
// want is the refusal's message, "" when the body is valid.
type requestCase struct {
	name string
	body string
	new  func() validator
	want string
}

// runRequests decodes and validates each case as api's readRequest does;
// refusals are 400s.
func runRequests(t *testing.T, cases []requestCase) {
	t.Helper()
	runRequestsCode(t, quire.CodeInvalid, cases)
}

// runRequestsCode is runRequests for refusals with code.
func runRequestsCode(t *testing.T, code quire.Code, cases []requestCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.new()
			if err := quire.DecodeJSON([]byte(tc.body), v); err != nil {
				t.Fatalf("decode %s: %v", tc.body, err)
			}
			err := v.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate(%s) = %v, want nil", tc.body, err)
				}
				return
			}
			if got := quire.ErrorMessage(err); got != tc.want || quire.ErrorCode(err) != code {
				t.Errorf("Validate(%s) = %s %q, want %s %q", tc.body, quire.ErrorCode(err), got, code, tc.want)
			}
		})
	}
}

func TestSiteRequests(t *testing.T) {
	site := func() validator { return &wire.CreateSite{} }
	update := func() validator { return &wire.UpdateSite{} }
	runRequests(t, []requestCase{
		{"site defaults", `{}`, site, ""},
		{"site type", `{"type":"gold"}`, site, "type: must be basic, premium, ultimate, sponsored, legacy-basic or legacy-premium"},
		{"site title short", `{"title":"a"}`, site, "title: must be 2 to 128 characters"},
		{"site visibility", `{"visibility":"secret"}`, site, "visibility: must be public, unlisted, share-link or visitor-auth"},
		{"site spaces twice", `{"spaces":["a","b","a"]}`, site, `spaces[2]: space "a" is listed twice`},
		{"site spaces string", `{"spaces":"a"}`, site, "spaces: must be a list of space ids or an object creating a space"},
		{"site new space title", `{"spaces":{"title":"` + strings.Repeat("x", 51) + `"}}`, site, "spaces.title: must be at most 50 characters"},
		{"site new space emoji", `{"spaces":{"emoji":""}}`, site, "spaces.emoji: must be 1 to 50 characters"},
		{"update null title", `{"title":null}`, update, "title: must be a string"},
		{"update visibility", `{"visibility":"x"}`, update, "visibility: must be public, unlisted, share-link or visitor-auth"},
		{"update hostname removed", `{"hostname":null,"basename":null,"proxy":null}`, update, ""},
		{"update adaptive content", `{"adaptiveContent":{}}`, update, "adaptiveContent.enabled: is required"},
		{"update published null", `{"published":null}`, update, "published: must be a boolean"},
		{"adaptive schema required", `{"jsonSchema":null}`, func() validator { return &wire.UpdateSiteAdaptiveSchema{} }, "jsonSchema: is required"},
		{"section space required", `{"title":"Docs"}`, func() validator { return &wire.AddSectionToSite{} }, "spaceId: is required"},
		{"section new space", `{"spaceId":null}`, func() validator { return &wire.AddSectionToSite{} }, ""},
		{"section title long", `{"spaceId":"s","title":"` + strings.Repeat("x", 65) + `"}`, func() validator { return &wire.AddSectionToSite{} }, "title: must be 2 to 64 characters"},
		{"section path", `{"path":"guides"}`, func() validator { return &wire.UpdateSiteSection{} }, ""},
		{"section path null", `{"path":null}`, func() validator { return &wire.UpdateSiteSection{} }, "path: must be a string"},
		{"group title required", `{}`, func() validator { return &wire.AddSectionGroupToSite{} }, "title: is required"},
		{"group sections twice", `{"title":"G","sections":["a","a"]}`, func() validator { return &wire.AddSectionGroupToSite{} }, `sections[1]: section "a" is listed twice`},
		{"group icon removed", `{"icon":null}`, func() validator { return &wire.UpdateSiteSectionGroup{} }, ""},
		{"group section required", `{}`, func() validator { return &wire.AddSectionToSectionGroup{} }, "sectionId: is required"},
		{"site space title", `{"spaceId":"s","title":"a"}`, func() validator { return &wire.AddSpaceToSite{} }, "title: must be 2 to 128 characters"},
		{"redirect both required", `{"source":"/a"}`, func() validator { return &wire.SiteRedirectInput{Required: true} }, "destination: is required"},
		{"redirect update one", `{"source":"/old/page"}`, func() validator { return &wire.SiteRedirectInput{} }, ""},
		{"redirect destination", `{"destination":{"kind":"url"}}`, func() validator { return &wire.SiteRedirectInput{} }, `destination: must be {"kind":"site-section","siteSectionId":ID}`},
		{"duplicate draft", `{"draft":true}`, func() validator { return &wire.DuplicateSiteSpace{} }, "draft: Quire sites have no drafts; omit it or give false"},
	})
}

func TestSiteExtrasRequests(t *testing.T) {
	link := func() validator { return &wire.SiteExternalLinkInput{} }
	mcp := func() validator { return &wire.SiteMCPServerInput{} }
	sort := func() validator {
		return &wire.SortSiteStructure{Kinds: map[string][]string{"site-space": {"site-space"}, "site-section": {"site-section", "site-section-group"}}}
	}
	move := func() validator {
		return &wire.MoveSiteItem{Siblings: wire.SiteMoveSiblings{Kinds: []string{"site-section", "site-section-group"}, Key: "id"}}
	}
	runRequests(t, []requestCase{
		{"link localized", `{"localizedTitle":{"fr":"x"}}`, link, "localizedTitle: Quire has no localized titles; set title and description"},
		{"link url relative", `{"url":"/docs"}`, link, "url: must be an absolute http or https URL of at most 2048 characters"},
		{"link parent null", `{"parent":null}`, link, ""},
		{"mcp headers null", `{"headers":null}`, mcp, "headers: must be an object"},
		{"mcp name long", `{"name":"` + strings.Repeat("x", 101) + `"}`, mcp, "name: must be 1 to 100 characters"},
		{"share link name required", `{"active":true}`, func() validator { return &wire.SiteShareLinkInput{Create: true} }, "name: is required"},
		{"share link nothing", `{}`, func() validator { return &wire.SiteShareLinkInput{} }, "name: give name or active"},
		{"share link name null", `{"name":null}`, func() validator { return &wire.SiteShareLinkInput{} }, "name: must be a string"},
		{"auth backend integration", `{"backend":"integration"}`, func() validator { return &wire.SitePublishingAuthUpdate{} }, `backend: "integration" is not supported: Quire has no visitor-auth integrations; use "custom" and sign visitors' tokens with the site's privateKey`},
		{"auth backend other", `{"backend":"x"}`, func() validator { return &wire.SitePublishingAuthUpdate{} }, `backend: must be "custom"`},
		{"auth removes", `{"backend":"custom","fallbackURL":null,"logoutURL":null}`, func() validator { return &wire.SitePublishingAuthUpdate{} }, ""},
		{"sort item required", `{}`, sort, "item: is required"},
		{"sort item type", `{"item":{"type":"page","id":"p"}}`, sort, "item.type: must be site-space, site-section, site-section-group or site-external-link"},
		{"sort position required", `{"item":{"type":"site-space","id":"s"}}`, sort, "position: is required ({} moves the item to the end)"},
		{"sort before and after", `{"item":{"type":"site-space","id":"s"},"position":{"before":{"type":"site-space","id":"a"},"after":{"type":"site-space","id":"b"}}}`, sort, "position: give before or after, not both"},
		{"sort sibling kind", `{"item":{"type":"site-section","id":"s"},"position":{"after":{"type":"site-space","id":"a"}}}`, sort, `position.after: must be {"type":"site-section" or "site-section-group","id":ID}`},
		{"sort to end", `{"item":{"type":"site-space","id":"s"},"position":{}}`, sort, ""},
		{"move no position", `{}`, move, ""},
		{"move before", `{"position":{"before":{"type":"site-section-group","id":"g"}}}`, move, ""},
		{"move before and after", `{"position":{"before":{"type":"site-section","id":"a"},"after":{"type":"site-section","id":"b"}}}`, move, "position: give before or after, not both"},
		{"move wrong key", `{"position":{"after":{"type":"site-section","siteSection":"a"}}}`, move, `position.after: must be {"type":"site-section" or "site-section-group","id":ID}`},
	})
}

func TestSiteRequestValues(t *testing.T) {
	published := func(title string) *store.NewSpace { return &store.NewSpace{Title: "made " + title} }
	var site wire.CreateSite
	if err := quire.DecodeJSON([]byte(`{"title":"Guide","spaces":{"emoji":"📘"}}`), &site); err != nil || site.Validate() != nil {
		t.Fatal("site body refused")
	}
	if n := site.NewSite(published); n.NewSpace == nil || n.NewSpace.Title != "made Guide" || n.NewSpace.Emoji != "📘" || n.Type != quire.SiteBasic {
		t.Errorf("NewSite = %+v, want a basic site creating the space titled after it", n)
	}
	var sec wire.AddSectionToSite
	if err := quire.DecodeJSON([]byte(`{"spaceId":null}`), &sec); err != nil || sec.Validate() != nil {
		t.Fatal("section body refused")
	}
	if n := sec.NewSection(published); n.SpaceID != "" || n.NewSpace == nil || n.NewSpace.Title != "made Untitled" {
		t.Errorf("NewSection = %+v, want a new space titled Untitled", n)
	}
	var link wire.SiteExternalLinkInput
	if err := quire.DecodeJSON([]byte(`{"title":"Home","url":"https://x.example","parent":null}`), &link); err != nil || link.Validate() != nil {
		t.Fatal("link body refused")
	}
	if got := quire.ErrorMessage(link.CheckCreate()); got != "parent: must be a section group id; leave it out for the root" {
		t.Errorf("CheckCreate = %q", got)
	}
	if u := link.Update(); u.GroupID == nil || *u.GroupID != "" || u.Icon != nil {
		t.Errorf("Update = %+v, want parent removed and icon kept", u)
	}
}

func TestChangeRequestRequests(t *testing.T) {
	update := func() validator { return &wire.UpdateChangeRequest{} }
	reviewers := func() validator { return &wire.RequestReviewersForChangeRequest{} }
	many := `"u"` + strings.Repeat(`,"u"`, wire.MaxReviewers)
	runRequests(t, []requestCase{
		{"create subject", `{"subject":"` + strings.Repeat("x", 101) + `"}`, func() validator { return &wire.CreateChangeRequest{} }, "subject: must be at most 100 characters"},
		{"update merged", `{"status":"merged"}`, update, "status: must be draft, open or archived (merging is POST …/merge)"},
		{"update description null", `{"description":null}`, update, "description: must be a JSON document (one with no nodes clears it)"},
		{"update description", `{"description":{"object":"document","nodes":[]}}`, update, ""},
		{"review status required", `{}`, func() validator { return &wire.SubmitChangeRequestReview{} }, "status: is required"},
		{"review markdown", `{"status":"approved","comment":{"markdown":"Looks good"}}`, func() validator { return &wire.SubmitChangeRequestReview{} }, ""},
		{"reviewers none", `{"users":[]}`, reviewers, "users: must list at least one user id"},
		{"reviewers many", `{"users":[` + many + `]}`, reviewers, "users: must list at most 50 users"},
		{"reviewers empty id", `{"users":["a",""]}`, reviewers, "users[1]: must be 1 to 128 characters"},
	})
}

func TestImportRequests(t *testing.T) {
	imp := func() validator { return &wire.ImportContent{} }
	run := func() validator { return &wire.StartImportRun{} }
	git := func(dir string) func() validator {
		return func() validator { return &wire.GitRepositoryInput{Direction: dir} }
	}
	upload := func() validator { return &wire.CreateUpload{MaxBytes: 64 << 20, MaxFontBytes: 4 << 20} }
	runRequests(t, []requestCase{
		{"import contract form", `{"url":"https://x.example","source":"website"}`, imp, ""},
		{"import url required", `{"source":"website"}`, imp, "url: is required"},
		{"import source required", `{"url":"https://x.example"}`, imp, "source: is required"},
		{"import files and url", `{"url":"https://x.example","source":{"type":"file","files":["k"]}}`, imp, "url: not taken with source type file"},
		{"import files none", `{"source":{"type":"file","files":[]}}`, imp, "source.files: 1 to 50 keys of uploaded files"},
		{"import unknown field", `{"source":{"type":"website","href":"x"}}`, imp, `source: must be "website" or an object {"type":"website","url"} or {"type":"file","files"}`},
		{"import website url", `{"source":{"type":"website"}}`, imp, "source.url: is required"},
		{"run files", `{"source":{"type":"file","files":["k"]}}`, run, "source.type: import runs import websites; import uploaded files with POST /v1/spaces/{spaceId}/content/import"},
		{"run target", `{"source":{"type":"website","url":"https://x.example"}}`, run, "target: is required"},
		{"run page", `{"source":{"type":"website","url":"https://x.example"},"target":{"space":"s","page":"p"}}`, run, "target.page: importing below a page is not supported; the pages go to the top of the content"},
		{"git ref", `{"url":"https://git.example/r"}`, git(store.GitDirImport), "ref: is required"},
		{"git export message", `{"url":"u","ref":"main"}`, git(store.GitDirExport), "commitMessage: is required"},
		{"git standalone sync", `{"url":"u","ref":"main","standalone":true,"sync":true}`, git(store.GitDirImport), "standalone: a standalone operation cannot turn sync on"},
		{"upload kind", `{"file":{"name":"a.zip","type":"application/zip","size":10},"kind":"x"}`, upload, "kind: import_file or customization_font"},
		{"upload size fraction", `{"file":{"name":"a.zip","type":"","size":1.5},"kind":"import_file"}`, upload, "file.size: is required, a whole number of bytes"},
	})
	runRequestsCode(t, quire.CodeTooLarge, []requestCase{
		{"upload too large", `{"file":{"name":"a.zip","type":"","size":67108865},"kind":"import_file"}`, upload, "file.size: at most 64 MiB"},
		{"upload font too large", `{"file":{"name":"a.woff2","type":"","size":4194305},"kind":"customization_font"}`, upload, "file.size: a font file is at most 4 MiB"},
	})
}

func TestSearchRequests(t *testing.T) {
	search := func() validator { return &wire.SearchSiteContent{} }
	ask := func() validator { return &wire.StreamAskInSite{} }
	orgAsk := func() validator { return &wire.SearchAIQuery{MaxQuestion: 10, MaxPrevious: 2} }
	runRequests(t, []requestCase{
		{"search scope required", `{"query":"x"}`, search, "scope: is required"},
		{"search deprecated ids", `{"query":"x","siteSpaceIds":["a"]}`, search, ""},
		{"search current", `{"query":"x","mode":"current"}`, search, "siteSpaceId: is required with mode current"},
		{"search restrict", `{"query":"x","scope":{"mode":"default","restrictTo":"currentSiteSpace"}}`, search, "scope.currentSiteSpace: is required with restrictTo"},
		{"search mode", `{"query":"x","scope":{"mode":"some"}}`, search, "scope.mode: must be default, specific or all"},
		{"ask scope", `{"question":"why?"}`, ask, "scope: is required"},
		{"org ask previous", `{"query":"why?","previousQueries":["a","b","c"]}`, orgAsk, "previousQueries: must hold at most 2 queries"},
		{"org ask previous long", `{"query":"why?","previousQueries":["` + strings.Repeat("x", 11) + `"]}`, orgAsk, "previousQueries[0]: must be at most 10 characters"},
		{"ask goal", `{"question":"why?","scope":{"mode":"all"},"context":{"goal":"` + strings.Repeat("x", 1025) + `"}}`, ask, "context.goal: must be at most 1024 characters"},
	})
	ss := func(id string, def bool) *quire.SiteSpace { return &quire.SiteSpace{ID: id, Default: def} }
	for _, tt := range []struct {
		scope wire.SiteSearchScope
		space *quire.SiteSpace
		want  bool
	}{
		{wire.SiteSearchScope{Mode: "specific", SiteSpaceIDs: []string{"a"}}, ss("a", false), true},
		{wire.SiteSearchScope{Mode: "specific", SiteSpaceIDs: []string{"a"}}, ss("b", true), false},
		{wire.SiteSearchScope{Mode: "default", CurrentSiteSpace: "a"}, ss("b", true), true},
		{wire.SiteSearchScope{Mode: "default", CurrentSiteSpace: "a", RestrictTo: "otherSiteSpaces"}, ss("a", true), false},
		{wire.SiteSearchScope{Mode: "all"}, ss("c", false), true},
	} {
		if got := tt.scope.Keeps(tt.space); got != tt.want {
			t.Errorf("%+v.Keeps(%+v) = %v, want %v", tt.scope, tt.space, got, tt.want)
		}
	}
}

func TestInsightsRequests(t *testing.T) {
	track := func() validator { return &wire.TrackEventsInSite{} }
	runRequests(t, []requestCase{
		{"events required", `{}`, track, "events: is required"},
		{"event type", `{"events":[{"type":"click"}]}`, track, "events[0].type: must be one of page_view, page_markdown_request, search_open, search_type_query, search_open_result, page_post_feedback, page_post_feedback_comment, agent_feedback, ask_question, ask_view, ask_rate_response, link_click, api_client_open, api_client_request, ad_click, ad_display, trademark_click, llms_request, mcp_request, rss_request"},
		{"event session", `{"events":[{"type":"page_view","location":{"url":"https://x.example/a"}}]}`, track, "events[0].session: is required"},
		{"event url", `{"events":[{"type":"page_view","session":{},"location":{"url":"/a"}}]}`, track, "events[0].location.url: must be an absolute URL"},
		{"event query", `{"events":[{"type":"ask_question","session":{},"location":{"url":"https://x.example/a"}}]}`, track, "events[0].query: is required"},
	})
	now := time.Date(2026, 5, 1, 10, 30, 0, 0, time.UTC)
	var b wire.TrackEventsInSite
	body := `{"events":[{"type":"page_view","session":{},"location":{"url":"https://x.example/docs/a"}},` +
		`{"type":"page_view","session":{"visitorAuthClaims":{"a":1}},"location":{"url":"https://x.example/docs/a","page":"p"},"timestamp":"2026-05-01T10:27:00Z"}]}`
	if err := quire.DecodeJSON([]byte(body), &b); err != nil || b.Validate() != nil {
		t.Fatal("events refused")
	}
	counts, err := b.Counts("site", now)
	if err != nil || len(counts) != 2 {
		t.Fatalf("Counts = %v, %v, want two keys", counts, err)
	}
	for k, n := range counts {
		if n != 1 || k.Hour != now.Truncate(time.Hour).Unix() || k.DisplayContext != "site" || (k.Page == "") != (k.URLPath == "/docs/a") || k.Authenticated != (k.Page == "p") {
			t.Errorf("count %+v = %d", k, n)
		}
	}
	b.Events[1].Timestamp = new(now.Add(-6 * time.Minute))
	if _, err := b.Counts("site", now); quire.ErrorMessage(err) != "events[1].timestamp: must be within 5 minutes of now" {
		t.Errorf("Counts with a stale timestamp = %v", err)
	}
}

func TestFontRequests(t *testing.T) {
	create := func() validator { return &wire.CustomFontInput{} }
	update := func() validator { return &wire.CustomFontInput{Update: true} }
	faces := `{"weight":100,"storageKey":"k"}` + strings.Repeat(`,{"weight":100,"storageKey":"k"}`, 20)
	runRequests(t, []requestCase{
		{"create family required", `{"fontFaces":[]}`, create, "fontFamily: is required, 1 to 50 characters"},
		{"create one face", `{"fontFamily":"Inter"}`, create, "fontFaces: at least one face"},
		{"update family kept", `{}`, update, ""},
		{"too many faces", `{"fontFaces":[` + faces + `]}`, update, "fontFaces: at most 20 faces"},
	})
	for _, tt := range []struct {
		name, body string
		update     bool
		face       int
		want       string
	}{
		{"weight fraction", `{"fontFaces":[{"weight":400.5,"storageKey":"k"}]}`, false, 0, "fontFaces[0].weight: must be a whole number from 1 to 1000"},
		{"weight twice", `{"fontFaces":[{"weight":400,"storageKey":"k"},{"weight":400,"storageKey":"l"}]}`, false, 1, "fontFaces[1].weight: 400 is given twice"},
		{"key null on create", `{"fontFaces":[{"weight":400,"storageKey":null}]}`, false, 0, "fontFaces[0].storageKey: must be the key of an uploaded file (1 to 512 characters)"},
		{"key null on update", `{"fontFaces":[{"weight":700,"storageKey":null}]}`, true, 0, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := wire.CustomFontInput{Update: tt.update}
			if err := quire.DecodeJSON([]byte(tt.body), &b); err != nil {
				t.Fatal(err)
			}
			_, _, _, err := b.Face(tt.face)
			if got := quire.ErrorMessage(err); (err == nil) != (tt.want == "") || (err != nil && got != tt.want) {
				t.Errorf("Face(%d) = %v, want %q", tt.face, err, tt.want)
			}
		})
	}
}
