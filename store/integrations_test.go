package store_test

import (
	"sync"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/store/storetest"
)

// TestPublishIntegrationConcurrent: publishes of one name at once each count
// one version, the first included, and none is lost or refused.
func TestPublishIntegrationConcurrent(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	b, err := db.InitOrganization(t.Context(), "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			_, err := db.PublishIntegration(t.Context(), store.IntegrationPublish{Integration: quire.Integration{
				Name: "busy", OrgID: b.Organization.ID, Title: "Busy", Visibility: "public", Target: "all", Runtime: "v1", Script: "k",
			}})
			if err != nil {
				t.Errorf("publish: %v", err)
			}
		})
	}
	wg.Wait()
	in, err := db.Integration(t.Context(), "busy")
	if err != nil {
		t.Fatal(err)
	}
	if in.Version != n {
		t.Errorf("version %d after %d publishes", in.Version, n)
	}
}

// TestPutTranslationLanguageConcurrent: puts of one new language at once
// create it once; the others update it.
func TestPutTranslationLanguageConcurrent(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	b, err := db.InitOrganization(t.Context(), "Org", "a@example.com", "A")
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for range n {
		wg.Go(func() {
			_, c, err := db.PutTranslationLanguage(t.Context(), b.Organization.ID, "cfg", "fr", []byte(`{"object":"document","nodes":[]}`))
			if err != nil {
				t.Errorf("put: %v", err)
			}
			if c {
				mu.Lock()
				created++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if created != 1 {
		t.Errorf("%d puts said they created the language, want 1", created)
	}
}
