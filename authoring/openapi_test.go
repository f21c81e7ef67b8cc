package authoring_test

import (
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// TestSpecVersion reads a spec's versions by id and as "latest", before
// and after one is processed, and as anyone once the spec is public.
func TestSpecVersion(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	org := f.space.OrgID
	doc := `{"openapi":"3.0.0","info":{"title":"Pets","version":"1"},"paths":{}}`
	spec, err := f.db.CreateOpenAPISpec(ctx, org, "pets", store.OpenAPISource{Text: doc})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"latest", ""} {
		if _, err := f.author.SpecVersion(ctx, spec, id); quire.ErrorCode(err) != quire.CodeNotFound {
			t.Fatalf("version %q before processing: %v, want not found", id, err)
		}
	}
	job, err := f.db.ClaimOpenAPIJob(ctx, time.Minute)
	if err != nil || job == nil {
		t.Fatalf("claim: %v, %v", job, err)
	}
	if ok, err := f.db.FinishOpenAPIJob(ctx, job, store.OpenAPIResult{Format: "json", Document: doc}); !ok || err != nil {
		t.Fatalf("finish: %v, %v", ok, err)
	}
	if spec, err = f.db.OpenAPISpec(ctx, org, "pets"); err != nil {
		t.Fatal(err)
	}
	latest, err := f.author.SpecVersion(ctx, spec, "latest")
	if err != nil || latest.ID != spec.LastVersion || latest.Document != doc {
		t.Fatalf("latest: %+v, %v", latest, err)
	}
	if byID, err := f.author.SpecVersion(ctx, spec, latest.ID); err != nil || byID.ID != latest.ID {
		t.Fatalf("by id: %+v, %v", byID, err)
	}
	if _, err := f.author.SpecVersion(ctx, spec, "nope"); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("no such version: %v, want not found", err)
	}

	for _, tc := range []struct {
		name      string
		org, slug string
		public    bool
		want      quire.Code
	}{
		{"private spec", org, "pets", false, quire.CodeNotFound},
		{"public spec", org, "pets", true, ""},
		{"no such spec", org, "cats", true, quire.CodeNotFound},
		{"another organization", "nope", "pets", true, quire.CodeNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vis := quire.SpecPrivate
			if tc.public {
				vis = quire.SpecPublic
			}
			if _, err := f.db.UpdateOpenAPISpecVisibility(ctx, org, "pets", vis); err != nil {
				t.Fatal(err)
			}
			v, err := f.author.PublicSpecVersion(ctx, tc.org, tc.slug, "latest")
			wantCode(t, "PublicSpecVersion", err, tc.want)
			if err == nil && v.ID != latest.ID {
				t.Fatalf("public latest is %s, want %s", v.ID, latest.ID)
			}
		})
	}
}
