package quire

// Cache tags, as GitBook's renderer names what it caches (its package
// cache-tags): the API's answers name theirs in X-Gitbook-Cache-Tag, and a
// site's revalidation calls name those whose answers changed. One form of
// each, here, for the API that sets them and the store that queues the
// calls.

// CacheTagSpace names what is read of a space: the space, its content.
func CacheTagSpace(spaceID string) string { return "space:" + spaceID }

// CacheTagChangeRequest names what is read of a change request.
func CacheTagChangeRequest(spaceID, changeRequestID string) string {
	return "space:" + spaceID + ":change-request:" + changeRequestID
}

// CacheTagSite names what is read of a site: its published structure,
// customization and redirects.
func CacheTagSite(siteID string) string { return "site:" + siteID }

// CacheTagOpenAPI names what is read of an organization's API specification.
func CacheTagOpenAPI(orgID, specSlug string) string {
	return "organization:" + orgID + ":openapi:" + specSlug
}

// CacheTagURL names what a hostname resolves to (urls/published).
func CacheTagURL(hostname string) string { return "url:" + hostname }
