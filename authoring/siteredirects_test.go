package authoring_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

func TestRedirectOps(t *testing.T) {
	t.Parallel()
	src := func(s string) *string { return &s }
	to := func(id string) *authoring.RedirectTarget {
		return &authoring.RedirectTarget{Kind: "site-section", SectionID: id}
	}
	sec := func(id string) *string { return &id }
	for _, tc := range []struct {
		name    string
		changes []authoring.RedirectChange
		want    []store.RedirectOp
		err     string // the error's start, "" for none
	}{
		{"none", nil, nil, "redirects: give 1 to 500 redirects"},
		{"too many", make([]authoring.RedirectChange, 501), nil, "redirects: give 1 to 500 redirects"},
		{"to a section", []authoring.RedirectChange{{Source: src("/old"), Destination: to("s1")}},
			[]store.RedirectOp{{Source: "/old", SectionID: sec("s1")}}, ""},
		{"null deletes", []authoring.RedirectChange{{Source: src("/old"), Intent: "live", Destination: &authoring.RedirectTarget{Delete: true}}},
			[]store.RedirectOp{{Source: "/old"}}, ""},
		{"no source", []authoring.RedirectChange{{Destination: to("s1")}}, nil, "redirects[0].source: is required"},
		{"a bad source", []authoring.RedirectChange{{Source: src("old"), Destination: to("s1")}}, nil, "redirects[0].source: "},
		{"an unknown intent", []authoring.RedirectChange{{Source: src("/alpha"), Intent: "later", Destination: to("s1")}}, nil,
			"redirects[0].intent: must be live, draft or publish"},
		{"no destination", []authoring.RedirectChange{{Source: src("/alpha"), Destination: to("s1")}, {Source: src("/beta")}}, nil,
			"redirects[1].destination: is required"},
		{"what Quire has not is refused, the others done", []authoring.RedirectChange{
			{Source: src("/draft"), Intent: "draft"},
			{Source: src("/perm"), Permanent: true, Destination: to("s1")},
			{Source: src("/url"), Destination: &authoring.RedirectTarget{Kind: "url"}},
			{Source: src("/ok"), Destination: to("s2")},
		}, []store.RedirectOp{
			{Source: "/draft", Refused: "Quire has no draft redirects: intent must be live"},
			{Source: "/perm", Refused: "Quire redirects are neither permanent nor wildcard ones"},
			{Source: "/url", Refused: `destination: Quire redirects go to a section of the site: {"kind":"site-section","siteSectionId":ID}`},
			{Source: "/ok", SectionID: sec("s2")},
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := authoring.RedirectOps(tc.changes)
			if tc.err != "" {
				if quire.ErrorCode(err) != quire.CodeInvalid || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("RedirectOps = %v, want invalid %q…", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("RedirectOps = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestUpsertSiteRedirects(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	site, _ := f.newSite(t)
	sec, err := f.db.CreateSiteSection(t.Context(), site, store.NewSiteSection{Title: "Guides", SpaceID: f.space.ID})
	if err != nil {
		t.Fatal(err)
	}
	old, draft := "/old", "/draft"
	res, err := f.author.UpsertSiteRedirects(t.Context(), site, []authoring.RedirectChange{
		{Source: &old, Destination: &authoring.RedirectTarget{Kind: "site-section", SectionID: sec.ID}},
		{Source: &draft, Intent: "draft"},
	})
	if err != nil || len(res) != 2 || res[0].Status != "created" || res[1].Status != "error" {
		t.Fatalf("UpsertSiteRedirects = %+v, %v; want created and error", res, err)
	}
	if rd, err := f.db.SiteRedirectBySource(t.Context(), site.ID, old); err != nil || rd.SectionID != sec.ID {
		t.Fatalf("redirect %+v, %v", rd, err)
	}
	if _, err := f.author.UpsertSiteRedirects(t.Context(), site, nil); quire.ErrorCode(err) != quire.CodeInvalid {
		t.Fatalf("UpsertSiteRedirects(none) = %v, want invalid", err)
	}
}
