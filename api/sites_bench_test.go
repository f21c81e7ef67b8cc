package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/quiredocs/quire/store"
)

// newBenchSite seeds a published site of sections sections, each with
// perSection site spaces, and a member (org role read) who reads it.
func newBenchSite(b *testing.B, sections, perSection int) (*env, string, user) {
	b.Helper()
	e, _ := newBenchEnv(b, 1, 0)
	member := e.addUser(b, "read", "Mia Member")
	ctx := b.Context()
	site, err := e.db.CreateSite(ctx, e.org, store.NewSite{Type: "basic", Title: "Bench docs", Visibility: "public"})
	if err != nil {
		b.Fatalf("create site: %v", err)
	}
	for i := range sections {
		sp, err := e.db.CreateSpace(ctx, e.org, store.NewSpace{Title: fmt.Sprintf("Section %02d", i)})
		if err != nil {
			b.Fatalf("create space: %v", err)
		}
		sec, err := e.db.CreateSiteSection(ctx, site, store.NewSiteSection{SpaceID: sp.ID})
		if err != nil {
			b.Fatalf("create section: %v", err)
		}
		for j := 1; j < perSection; j++ {
			sp, err := e.db.CreateSpace(ctx, e.org, store.NewSpace{Title: fmt.Sprintf("Variant %02d.%d", i, j)})
			if err != nil {
				b.Fatalf("create space: %v", err)
			}
			if _, err := e.db.CreateSiteSpace(ctx, site, store.NewSiteSpace{SpaceID: sp.ID, SectionID: sec.ID}); err != nil {
				b.Fatalf("create site space: %v", err)
			}
		}
	}
	published := true
	if _, err := e.db.UpdateSite(ctx, site.ID, store.SiteUpdate{Published: &published}); err != nil {
		b.Fatalf("publish: %v", err)
	}
	return e, "/v1/orgs/" + e.org + "/sites/" + site.ID + "/published", member
}

// benchPublished runs GET SITE/published for a site of 20 sections of 5 site
// spaces each, as a member of the organization and as an outsider of a
// public site.
func benchPublished(b *testing.B, parallel bool) {
	e, path, member := newBenchSite(b, 20, 5)
	var p struct {
		Structure struct {
			Structure []struct {
				SiteSpaces []struct{} `json:"siteSpaces"`
			} `json:"structure"`
		} `json:"structure"`
	}
	e.call(b, member.token, http.MethodGet, path, nil).want(b, http.StatusOK).Decode(b, &p)
	if n := len(p.Structure.Structure); n != 20 || len(p.Structure.Structure[19].SiteSpaces) != 5 {
		b.Fatalf("structure of %d sections, want 20 of 5", n)
	}
	outsider := e.outsider(b)
	b.Run("member", func(b *testing.B) { benchGetAs(b, e, member.token, path, parallel) })
	b.Run("outsider", func(b *testing.B) { benchGetAs(b, e, outsider.token, path, parallel) })
}

// BenchmarkGetPublishedSite reads the published profile of a site of 100
// site spaces. Issue 6: 5,000 req/s or more (see the parallel run).
func BenchmarkGetPublishedSite(b *testing.B) { benchPublished(b, false) }

// BenchmarkGetPublishedSiteParallel is BenchmarkGetPublishedSite from
// GOMAXPROCS goroutines at once: its req/s is the one the goal is about.
func BenchmarkGetPublishedSiteParallel(b *testing.B) { benchPublished(b, true) }
