package site_test

import (
	"net/http"
	"strings"
	"testing"
)

// A visitor refused by a site's visibility gets the 404 of a site that
// does not exist: the page names nothing of the site.
func TestRefusedVisitorsSeeNothingOfTheSite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, url := e.siteOf(t, "Secret handbook", "share-link", guideSpace(t, e))
	for _, path := range []string{"", "install", "nowhere"} {
		if a := fetch(t, nil, "GET", url+path); a.status != http.StatusNotFound || strings.Contains(a.body, "Secret handbook") {
			t.Errorf("GET %s: %d, or the site's title shown", path, a.status)
		}
	}
}
