package api

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
)

// Cache tags (issue 30). GitBook's renderer caches the answers it reads
// for a published site and files each under the tags the answer names in
// X-Gitbook-Cache-Tag (comma-separated, no spaces: it splits on ","); a
// site's revalidation calls (store.SiteRevalidation, jobs.Revalidator) name
// the tags whose answers changed. A read's tags follow from its route's
// path: routeCacheTags is the one rule, which the router applies to every
// read before its handler runs; the few answers whose tags depend on what
// they found (urls/published) add theirs with addCacheTags.
//
// No X-Gitbook-Cache-Control is sent: the only answers the renderer reads
// it on are documents, which are those of a revision and never change, and
// what does change is revalidated by its tags.

// headerCacheTag is where an answer names its cache tags.
const headerCacheTag = "X-Gitbook-Cache-Tag"

// routeCacheTags are the tags of a read of r's route, from its path: a
// change request's (space:S:change-request:C), else a space's (space:S),
// else a site's (site:X), else an API specification's
// (organization:O:openapi:SLUG); none for other routes.
func routeCacheTags(r *http.Request) []string {
	space, cr := r.PathValue("spaceId"), r.PathValue("changeRequestId")
	switch {
	case space != "" && cr != "":
		return []string{quire.CacheTagChangeRequest(space, cr)}
	case space != "":
		return []string{quire.CacheTagSpace(space)}
	}
	if site := r.PathValue("siteId"); site != "" {
		return []string{quire.CacheTagSite(site)}
	}
	if spec := r.PathValue("specSlug"); spec != "" {
		return []string{quire.CacheTagOpenAPI(r.PathValue("organizationId"), spec)}
	}
	return nil
}

// tagRead sets the tags of r's route on a read's answer.
func tagRead(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		addCacheTags(w, routeCacheTags(r)...)
	}
}

// addCacheTags adds tags to the answer's X-Gitbook-Cache-Tag.
func addCacheTags(w http.ResponseWriter, tags ...string) {
	if len(tags) == 0 {
		return
	}
	h := w.Header()
	all := strings.Join(tags, ",")
	if prev := h.Get(headerCacheTag); prev != "" {
		all = prev + "," + all
	}
	h[headerCacheTag] = []string{all}
}
