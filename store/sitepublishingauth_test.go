package store_test

import (
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

var visitorKeyPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

func TestSitePublishingAuth(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	db := storetest.Open(t)
	b, err := db.InitOrganization(ctx, "Org", "ada@example.com", "Ada")
	if err != nil {
		t.Fatal(err)
	}
	site, err := db.CreateSite(ctx, b.Organization.ID, store.NewSite{Type: quire.SiteBasic, Title: "Docs", Visibility: quire.VisibilityVisitorAuth})
	if err != nil {
		t.Fatal(err)
	}
	key := site.PublishingAuth.Key
	if !visitorKeyPattern.MatchString(key) {
		t.Fatalf("new site's key %q, want 64 hex digits", key)
	}
	if header, _ := db.SiteHeader(ctx, site.ID); header.PublishingAuth.Key != key {
		t.Errorf("site header's key %q, want %q", header.PublishingAuth.Key, key)
	}

	fallback, logout, issuer := "https://auth.example.com/login", "https://auth.example.com/logout", "auth.example.com"
	got, err := db.UpdateSitePublishingAuth(ctx, site.ID, store.SitePublishingAuthUpdate{FallbackURL: &fallback, LogoutURL: &logout, Issuer: &issuer})
	if err != nil {
		t.Fatal(err)
	}
	want := quire.SitePublishingAuth{Key: key, FallbackURL: fallback, LogoutURL: logout, Issuer: issuer}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after update (-want +got):\n%s", diff)
	}
	if after, _ := db.Site(ctx, site.ID); after.Version <= site.Version {
		t.Errorf("version %d after update, want more than %d: caches of the site must see it", after.Version, site.Version)
	}

	empty := ""
	got, err = db.UpdateSitePublishingAuth(ctx, site.ID, store.SitePublishingAuthUpdate{LogoutURL: &empty})
	if err != nil {
		t.Fatal(err)
	}
	want.LogoutURL = ""
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after removing the logout URL (-want +got):\n%s", diff)
	}

	got, err = db.RegenerateSitePublishingAuth(ctx, site.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Key == key || !visitorKeyPattern.MatchString(got.Key) || got.FallbackURL != fallback {
		t.Errorf("regenerated %+v, want a new key and the same URLs", got)
	}

	// A site from before keys gets one when first read, and keeps it.
	if err := db.ForgetVisitorKey(ctx, site.ID); err != nil {
		t.Fatal(err)
	}
	if header, _ := db.SiteHeader(ctx, site.ID); header.PublishingAuth.Key != "" {
		t.Fatalf("key %q after forgetting it", header.PublishingAuth.Key)
	}
	first, err := db.SitePublishingAuth(ctx, site.ID)
	if err != nil || !visitorKeyPattern.MatchString(first.Key) {
		t.Fatalf("lazily made key %q, %v", first.Key, err)
	}
	if again, _ := db.SitePublishingAuth(ctx, site.ID); again.Key != first.Key {
		t.Errorf("key changed on a second read: %q then %q", first.Key, again.Key)
	}

	for name, call := range map[string]func() error{
		"read": func() error { _, err := db.SitePublishingAuth(ctx, "nosuchsite"); return err },
		"update": func() error {
			_, err := db.UpdateSitePublishingAuth(ctx, "nosuchsite", store.SitePublishingAuthUpdate{Issuer: &issuer})
			return err
		},
		"regenerate": func() error { _, err := db.RegenerateSitePublishingAuth(ctx, "nosuchsite"); return err },
	} {
		if err := call(); quire.ErrorCode(err) != quire.CodeNotFound {
			t.Errorf("%s of a missing site: %v, want not found", name, err)
		}
	}
}
