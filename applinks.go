package quire

import "strings"

// The app's addresses. Each pattern is both a route of package app (a
// net/http ServeMux pattern, without method) and the shape of the links the
// API answers as urls.app, which the App*URL functions fill in: one list, so
// the two cannot drift.
const (
	AppOrgPath           = "/o/{organizationId}"
	AppCollectionPath    = "/c/{collectionId}"
	AppSpacePath         = "/s/{spaceId}"
	AppPagePath          = "/s/{spaceId}/{path...}"
	AppChangeRequestPath = "/s/{spaceId}/changes/{changeRequestId}"
	AppEditPath          = "/s/{spaceId}/changes/{changeRequestId}/edit/{path...}"
	AppRevisionPath      = "/s/{spaceId}/revisions/{revisionId}"
	AppCommentPath       = "/s/{spaceId}/comments/{commentId}"
	AppSitePath          = "/o/{organizationId}/sites/{siteId}"
	AppOpenAPIPath       = "/o/{organizationId}/openapi/{slug}"
	AppInstallationPath  = "/o/{organizationId}/integrations/{integrationName}"
	AppIntegrationPath   = "/integrations/{integrationName}"
	AppJoinPath          = "/o/{organizationId}/join/{inviteId}"
)

// AppPath fills the wildcards of pattern, in order, with values. A value is
// used as it is: ids and slugs need no escaping.
func AppPath(pattern string, values ...string) string {
	var b strings.Builder
	b.Grow(len(pattern) + 32)
	rest := pattern
	for _, v := range values {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest, '}')
		if i < 0 || j < i {
			break
		}
		b.WriteString(rest[:i])
		b.WriteString(v)
		rest = rest[j+1:]
	}
	b.WriteString(rest)
	return b.String()
}

// AppOrgURL is the app's page of an organization, below base (the main
// address, without a trailing slash; "" for a path).
func AppOrgURL(base, orgID string) string { return base + AppPath(AppOrgPath, orgID) }

// AppCollectionURL is the app's page of a collection.
func AppCollectionURL(base, collectionID string) string {
	return base + AppPath(AppCollectionPath, collectionID)
}

// AppSpaceURL is the app's page of a space (its first page).
func AppSpaceURL(base, spaceID string) string { return base + AppPath(AppSpacePath, spaceID) }

// AppPageURL is the app's page of the page at path of a space, at its
// section anchor when that is not "".
func AppPageURL(base, spaceID, path, anchor string) string {
	u := base + AppPath(AppPagePath, spaceID, path)
	if anchor != "" {
		u += "#" + anchor
	}
	return u
}

// AppChangeRequestURL is the app's page of a change request of a space.
func AppChangeRequestURL(base, spaceID, changeRequestID string) string {
	return base + AppPath(AppChangeRequestPath, spaceID, changeRequestID)
}

// AppEditURL is the app's editor of the page at path of a change request
// ("" for its first page).
func AppEditURL(base, spaceID, changeRequestID, path string) string {
	return base + AppPath(AppEditPath, spaceID, changeRequestID, path)
}

// AppRevisionURL is the app's read-only view of a revision of a space.
func AppRevisionURL(base, spaceID, revisionID string) string {
	return base + AppPath(AppRevisionPath, spaceID, revisionID)
}

// AppCommentURL is the app's address of a comment of a space: it leads to
// the comment where it is shown.
func AppCommentURL(base, spaceID, commentID string) string {
	return base + AppPath(AppCommentPath, spaceID, commentID)
}

// AppSiteURL is the app's page of a docs site.
func AppSiteURL(base, orgID, siteID string) string {
	return base + AppPath(AppSitePath, orgID, siteID)
}

// AppOpenAPIURL is the app's page of an organization's API specification.
func AppOpenAPIURL(base, orgID, slug string) string {
	return base + AppPath(AppOpenAPIPath, orgID, slug)
}

// AppInstallationURL is the app's page of an integration installed in an
// organization.
func AppInstallationURL(base, orgID, integration string) string {
	return base + AppPath(AppInstallationPath, orgID, integration)
}

// AppIntegrationURL is the app's page of an integration.
func AppIntegrationURL(base, integration string) string {
	return base + AppPath(AppIntegrationPath, integration)
}

// SessionCookie is the cookie holding an app session's id. The app sets
// it; published sites on the main address read it to admit members.
const SessionCookie = "quire_session"
