package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/store"
)

// routes lists every route, in contract order: the API's map.
func (s *Server) routes() {
	s.handlePublic("GET /healthz", s.healthz)
	s.mux.Handle("GET /metrics", s.metrics.handler())
	s.handlePublic("GET /v1/openapi.json", s.getOpenAPI)

	// Users and organizations (extras beyond the contract, shapes from the reference).
	s.handle("GET /v1/user", s.getCurrentUser)
	s.handle("GET /v1/users/{userId}", s.getUser)
	s.handle("PATCH /v1/users/{userId}", s.updateUser)
	s.handle("GET /v1/orgs", s.listOrgs)
	s.handle("POST /v1/orgs", s.createOrg)
	s.handle("GET /v1/orgs/{organizationId}", s.getOrg)
	s.handle("PATCH /v1/orgs/{organizationId}", s.updateOrg)

	// §4.13 Organization members.
	s.handle("GET /v1/orgs/{organizationId}/members", s.listMembers)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}", s.getMember)
	s.handle("DELETE /v1/orgs/{organizationId}/members/{userId}", s.removeMember)
	s.handle("PATCH /v1/orgs/{organizationId}/members/{userId}", s.updateMember)
	s.handle("POST /v1/orgs/{organizationId}/ping", s.ping)
	s.handle("POST /v1/orgs/{organizationId}/members/{userId}/sso", s.setMemberSSO)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}/spaces", s.listMemberSpaces)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}/teams", s.listMemberTeams)

	// Invites, organization search and change requests (extras, shapes from
	// the reference).
	s.handle("POST /v1/orgs/{organizationId}/invites", s.inviteUsers)
	s.handle("POST /v1/orgs/{organizationId}/invites/{inviteId}", s.joinWithInvite)
	s.handle("GET /v1/orgs/{organizationId}/link-invites", s.listLinkInvites)
	s.handle("POST /v1/orgs/{organizationId}/link-invites", s.createLinkInvite)
	s.handle("GET /v1/orgs/{organizationId}/link-invites/{inviteId}", s.getLinkInvite)
	s.handle("PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}", s.updateLinkInvite)
	s.handle("DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}", s.deleteLinkInvite)
	s.handle("GET /v1/orgs/{organizationId}/search", s.searchOrg)
	s.handle("GET /v1/orgs/{organizationId}/change-requests", s.listOrgChangeRequests)

	// Spaces of an organization (extras, shapes from the reference).
	s.handle("GET /v1/orgs/{organizationId}/spaces", s.listSpaces)
	s.handle("POST /v1/orgs/{organizationId}/spaces", s.createSpace)

	// §4.3 Change requests.
	s.handle("GET /v1/spaces/{spaceId}/change-requests", s.listChangeRequests)
	s.handle("POST /v1/spaces/{spaceId}/change-requests", s.createChangeRequest)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}", s.getChangeRequest)
	s.handle("PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}", s.updateChangeRequest)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", s.mergeChangeRequest)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update", s.updateChangeRequestFromSpace)
	// Reviews and requested reviewers (extras, shapes from the reference).
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", s.listReviews)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", s.submitReview)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}", s.getReview)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", s.listRequestedReviewers)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", s.requestReviewers)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", s.removeRequestedReviewer)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes", viewHandler(s.changeRequestView, s.getChangeRequestChanges))
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", s.getChangeRequestPDF)

	// §4.1 Change request comments and §4.2 space comments: one set of
	// handlers, the path naming a change request or not.
	for _, prefix := range []string{"/v1/spaces/{spaceId}/change-requests/{changeRequestId}", "/v1/spaces/{spaceId}"} {
		s.handle("GET "+prefix+"/comments", s.listComments)
		s.handle("POST "+prefix+"/comments", s.postComment)
		comment, reply := prefix+"/comments/{commentId}", prefix+"/comments/{commentId}/replies/{commentReplyId}"
		s.handle("GET "+comment, s.onComment(s.comment, quire.RoleRead, s.getCommentOrReply))
		s.handle("PUT "+comment, s.onComment(s.comment, quire.RoleComment, s.updateCommentOrReply))
		s.handle("DELETE "+comment, s.onComment(s.comment, quire.RoleComment, s.deleteCommentOrReply))
		s.handle("GET "+comment+"/replies", s.onComment(s.comment, quire.RoleRead, s.listCommentReplies))
		s.handle("POST "+comment+"/replies", s.onComment(s.comment, quire.RoleComment, s.postCommentReply))
		s.handle("GET "+reply, s.onComment(s.commentReply, quire.RoleRead, s.getCommentOrReply))
		s.handle("PUT "+reply, s.onComment(s.commentReply, quire.RoleComment, s.updateCommentOrReply))
		s.handle("DELETE "+reply, s.onComment(s.commentReply, quire.RoleComment, s.deleteCommentOrReply))
	}

	// Contributors and commenters (extras, shapes from the reference).
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", s.listContributors)
	s.handle("GET /v1/spaces/{spaceId}/commenters", s.listCommenters)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters", s.listCommenters)

	// §4.4 Change request content, §4.5 space content, and revisions by id.
	s.handleLimit("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", MaxBatchBytes, s.editChangeRequestContent)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import", s.importIntoChangeRequest)
	s.handle("POST /v1/spaces/{spaceId}/content/import", s.importIntoSpace)
	for prefix, load := range map[string]func(*http.Request) (*revision.View, error){
		"/v1/spaces/{spaceId}/content":                                   s.spaceView,
		"/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content": s.changeRequestView,
	} {
		s.handle("GET "+prefix, viewHandler(load, s.getRevision))
		s.handle("GET "+prefix+"/pages", viewHandler(load, s.listPages))
		s.handle("GET "+prefix+"/files", viewHandler(load, s.listFiles))
		s.handle("GET "+prefix+"/files/{fileId}", viewHandler(load, s.getFile))
		s.handle("GET "+prefix+"/files/{fileId}/backlinks", viewHandler(load, s.listFileBacklinks))
		s.handle("GET "+prefix+"/page/{pageId}", viewHandler(load, s.getPage))
		s.handle("GET "+prefix+"/page/{pageId}/links", viewHandler(load, s.listPageLinks))
	}
	s.handle("GET /v1/spaces/{spaceId}/content/path/{pagePath...}", viewHandler(s.spaceView, s.getPageByPath))
	s.handle("GET /v1/spaces/{spaceId}/links", viewHandler(s.spaceView, s.listSpaceLinks))
	s.handle("GET /v1/spaces/{spaceId}/search", viewHandler(s.spaceView, s.searchSpace))
	s.handle("GET /v1/spaces/{spaceId}/embed", s.getEmbedInSpace)
	s.handle("POST /v1/spaces/{spaceId}/content/computed/document", s.getComputedDocument)
	s.handle("GET /v1/spaces/{spaceId}/pdf", s.getSpacePDF)
	// Not under /v1: where PDF links lead. The link's signature, not a
	// token, says who may follow it (pdf.go).
	s.handlePublic("GET /pdf/{spaceId}/{revisionId}", s.downloadPDF)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}", viewHandler(s.revisionView, s.getRevision))
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages", viewHandler(s.revisionView, s.listPages))
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", viewHandler(s.revisionView, s.getPage))
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes", viewHandler(s.revisionView, s.getRevisionChanges))
	// Not in the reference: the bytes behind each file's downloadURL, signed
	// for browsers without a token (filelinks.go), and for API tokens.
	s.handlePublic("GET /file/{spaceId}/{revisionId}/{fileId}", s.downloadSignedFile)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}/download", viewHandler(s.revisionView, s.downloadFile))
	// Not in the reference: a revision as a folder in GitBook's Git Sync
	// layout (zip, or .tar.gz by Accept); uploads' signed URLs (api/folders.go).
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/export", viewHandler(s.revisionView, s.exportFolder))
	s.handle("GET /v1/spaces/{spaceId}/content/export", viewHandler(s.spaceView, s.exportFolder))
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/export", viewHandler(s.changeRequestView, s.exportFolder))
	s.handle("POST /v1/orgs/{organizationId}/storage/upload", s.createUpload)
	s.handlePublic("PUT /v1/storage/uploads/{key}", s.putUpload)
	// The reference's remaining content reads (issue 19): see contentextra.go.
	rev := "/v1/spaces/{spaceId}/revisions/{revisionId}"
	s.handle("GET "+rev+"/files", viewHandler(s.revisionView, s.listFiles))
	s.handle("GET "+rev+"/files/{fileId}", viewHandler(s.revisionView, s.getFile))
	s.handle("GET "+rev+"/path/{pagePath...}", viewHandler(s.revisionView, s.getPageByPath))
	s.handle("GET "+rev+"/page/{pageId}/document", viewHandler(s.revisionView, s.getPageDocument))
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/path/{pagePath...}", viewHandler(s.changeRequestView, s.getPageByPath))
	s.handle("GET /v1/spaces/{spaceId}/documents/{documentId}", viewHandler(s.spaceView, s.getDocument))
	for prefix, load := range map[string]func(*http.Request) (*revision.View, error){
		"/v1/spaces/{spaceId}/content":                                   s.spaceView,
		"/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content": s.changeRequestView,
		rev: s.revisionView,
	} {
		s.handle("GET "+prefix+"/page/{pageId}/meta-links", viewHandler(load, s.getPageMetaLinks))
		s.handle("GET "+prefix+"/reusable-contents/{reusableContentId}", viewHandler(load, s.getReusableContent(false)))
	}
	s.handle("GET "+rev+"/reusable-contents/{reusableContentId}/document", viewHandler(s.revisionView, s.getReusableContent(true)))

	// §4.6 Spaces.
	s.handle("GET /v1/spaces/{spaceId}", s.getSpace)
	s.handle("DELETE /v1/spaces/{spaceId}", s.deleteSpace)
	s.handle("PATCH /v1/spaces/{spaceId}", s.updateSpace)
	s.handle("POST /v1/spaces/{spaceId}/duplicate", s.duplicateSpace)
	s.handle("POST /v1/spaces/{spaceId}/restore", s.restoreSpace)
	s.handle("POST /v1/spaces/{spaceId}/move", s.moveSpace)
	s.handle("POST /v1/spaces/{spaceId}/transfer", s.transferSpace)
	// Git sync (git.go); DELETE S/git, S/git/webhook-secret, S/git/webhook and S/git/deploy-key
	// (gitdeploykey.go) are Quire's.
	s.handle("POST /v1/spaces/{spaceId}/git/import", s.importGitRepository)
	s.handle("POST /v1/spaces/{spaceId}/git/export", s.exportToGitRepository)
	s.handle("GET /v1/spaces/{spaceId}/git/info", s.getSpaceGitInfo)
	s.handle("DELETE /v1/spaces/{spaceId}/git", s.deleteSpaceGit)
	s.handle("POST /v1/spaces/{spaceId}/git/webhook-secret", s.rotateGitWebhookSecret)
	s.handlePublic("POST /v1/spaces/{spaceId}/git/webhook", s.gitWebhook)
	s.handle("GET /v1/spaces/{spaceId}/git/deploy-key", s.getGitDeployKey)
	s.handle("POST /v1/spaces/{spaceId}/git/deploy-key", s.rotateGitDeployKey)

	// §4.7 Collections.
	s.handle("GET /v1/collections/{collectionId}", s.getCollection)
	s.handle("DELETE /v1/collections/{collectionId}", s.deleteCollection)
	s.handle("PATCH /v1/collections/{collectionId}", s.updateCollection)
	s.handle("GET /v1/collections/{collectionId}/spaces", s.listCollectionSpaces)
	s.handle("POST /v1/collections/{collectionId}/move", s.moveCollection)
	s.handle("POST /v1/collections/{collectionId}/transfer", s.transferCollection)
	s.handle("GET /v1/orgs/{organizationId}/collections", s.listCollections)
	s.handle("POST /v1/orgs/{organizationId}/collections", s.createCollection)

	// §4.8 Docs sites, §4.9 site sections, §4.10 section groups, §4.11 site
	// spaces, §4.12 site redirects.
	site := "/v1/orgs/{organizationId}/sites/{siteId}"
	s.handle("GET /v1/orgs/{organizationId}/sites", s.listSites)
	s.handle("POST /v1/orgs/{organizationId}/sites", s.createSite)
	s.handle("GET "+site, s.getSite)
	s.handle("DELETE "+site, s.deleteSite)
	s.handle("PATCH "+site, s.updateSite)
	s.handle("GET "+site+"/adaptive-schema", s.getAdaptiveSchema)
	s.handle("PUT "+site+"/adaptive-schema", s.putAdaptiveSchema)
	s.handle("GET "+site+"/published", s.getPublishedSite)
	// Issue 19: the rest of the reference's site operations.
	s.handle("GET "+site+"/share-links", s.listSiteShareLinks)
	s.handle("POST "+site+"/share-links", s.createSiteShareLink)
	s.handle("PATCH "+site+"/share-links/{shareLinkId}", s.updateSiteShareLink)
	s.handle("DELETE "+site+"/share-links/{shareLinkId}", s.deleteSiteShareLink)
	s.handle("POST "+site+"/permissions", s.invite(s.siteContent))
	s.handle("GET "+site+"/permissions/aggregate", s.listAccess(s.siteContent))
	s.handle("GET "+site+"/permissions/users", s.listUserGrants(s.siteContent))
	s.handle("PATCH "+site+"/permissions/users/{userId}", s.updateGrant(s.siteContent, "user"))
	s.handle("DELETE "+site+"/permissions/users/{userId}", s.removeGrant(s.siteContent, "user"))
	s.handle("GET "+site+"/permissions/teams", s.listTeamGrants(s.siteContent))
	s.handle("PATCH "+site+"/permissions/teams/{teamId}", s.updateGrant(s.siteContent, "team"))
	s.handle("DELETE "+site+"/permissions/teams/{teamId}", s.removeGrant(s.siteContent, "team"))
	s.handle("GET "+site+"/customization", s.getSiteCustomization)
	s.handle("PUT "+site+"/customization", s.putSiteCustomization)
	s.handle("GET "+site+"/site-spaces/{siteSpaceId}/customization", s.getSiteSpaceCustomization)
	s.handle("PATCH "+site+"/site-spaces/{siteSpaceId}/customization", s.overrideSiteSpaceCustomization)
	s.handle("DELETE "+site+"/site-spaces/{siteSpaceId}/customization", s.deleteSiteSpaceCustomization)
	s.handle("GET "+site+"/structure", s.getSiteStructure)
	s.handle("PATCH "+site+"/structure/sort", s.sortSiteStructure)
	s.handle("POST "+site+"/publish", s.setPublished(true))
	s.handle("POST "+site+"/unpublish", s.setPublished(false))
	s.handle("POST "+site+"/site-spaces/{siteSpaceId}/duplicate", s.duplicateSiteSpace)
	s.handle("PUT "+site+"/redirects", s.bulkUpsertSiteRedirects)
	// Not in the reference's subset: how visitor-auth visitors are admitted.
	s.handle("GET "+site+"/publishing/auth", s.getSitePublishingAuth)
	s.handle("PATCH "+site+"/publishing/auth", s.updateSitePublishingAuth)
	s.handle("POST "+site+"/publishing/auth/regenerate", s.regenerateSitePublishingAuth)
	// Not in the reference: the renderer's revalidation endpoint (siterevalidation.go).
	s.handle("GET "+site+"/revalidation", s.getSiteRevalidation)
	s.handle("PUT "+site+"/revalidation", s.putSiteRevalidation)
	s.handle("DELETE "+site+"/revalidation", s.deleteSiteRevalidation)
	s.handle("GET "+site+"/sections", s.listSiteSections)
	s.handle("POST "+site+"/sections", s.createSiteSection)
	s.handle("DELETE "+site+"/sections/{siteSectionId}", s.deleteSiteSection)
	s.handle("PATCH "+site+"/sections/{siteSectionId}", s.updateSiteSection)
	s.handle("POST "+site+"/sections/{siteSectionId}/move", s.moveSiteSection)
	s.handle("GET "+site+"/section-groups", s.listSiteSectionGroups)
	s.handle("POST "+site+"/section-groups", s.createSiteSectionGroup)
	s.handle("DELETE "+site+"/section-groups/{siteSectionGroupId}", s.deleteSiteSectionGroup)
	s.handle("PATCH "+site+"/section-groups/{siteSectionGroupId}", s.updateSiteSectionGroup)
	s.handle("POST "+site+"/section-groups/{siteSectionGroupId}/sections", s.addSectionToGroup)
	s.handle("DELETE "+site+"/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", s.removeSectionFromGroup)
	s.handle("POST "+site+"/section-groups/{siteSectionGroupId}/move", s.moveSiteSectionGroup)
	s.handle("GET "+site+"/site-spaces", s.listSiteSpaces)
	s.handle("POST "+site+"/site-spaces", s.createSiteSpace)
	s.handle("DELETE "+site+"/site-spaces/{siteSpaceId}", s.deleteSiteSpace)
	s.handle("PATCH "+site+"/site-spaces/{siteSpaceId}", s.updateSiteSpace)
	s.handle("POST "+site+"/site-spaces/{siteSpaceId}/move", s.moveSiteSpace)
	s.handle("GET "+site+"/redirects", s.listSiteRedirects)
	s.handle("POST "+site+"/redirects", s.createSiteRedirect)
	s.handle("DELETE "+site+"/redirects/{siteRedirectId}", s.deleteSiteRedirect)
	s.handle("PATCH "+site+"/redirects/{siteRedirectId}", s.updateSiteRedirect)
	s.handle("GET "+site+"/redirect", s.getSiteRedirect)
	// Issue 19: search, ask, insights, MCP servers, external links and
	// integrations of a site (sitesearch.go, siteinsights.go, siteextras.go).
	s.handle("POST "+site+"/search", s.searchSite)
	s.handle("POST "+site+"/search/prewarm", s.prewarmSiteSearch)
	s.handle("POST "+site+"/ask", s.askSite)
	s.handle("GET "+site+"/ask/questions", s.siteRecommendedQuestions)
	s.handle("POST "+site+"/insights/events", s.trackSiteEvents)
	s.handle("POST "+site+"/insights/events/aggregate", s.aggregateSiteEvents)
	s.handle("GET "+site+"/insights/visitor-segments", s.listSiteVisitorSegments)
	s.handle("GET "+site+"/question-stats", s.getSiteQuestionStats)
	s.handle("GET "+site+"/mcp-servers", s.listSiteMCPServers)
	s.handle("POST "+site+"/mcp-servers", s.createSiteMCPServer)
	s.handle("GET "+site+"/mcp-servers/{siteMcpServerId}", s.getSiteMCPServer)
	s.handle("PATCH "+site+"/mcp-servers/{siteMcpServerId}", s.updateSiteMCPServer)
	s.handle("DELETE "+site+"/mcp-servers/{siteMcpServerId}", s.deleteSiteMCPServer)
	s.handle("POST "+site+"/external-links", s.createSiteExternalLink)
	s.handle("PATCH "+site+"/external-links/{siteExternalLinkId}", s.updateSiteExternalLink)
	s.handle("DELETE "+site+"/external-links/{siteExternalLinkId}", s.deleteSiteExternalLink)
	s.handle("GET "+site+"/integrations", s.listSiteIntegrations)
	s.handle("GET "+site+"/integration-scripts", s.listSiteIntegrationScripts)

	// Space and collection grants (extras, shapes from the reference).
	for _, prefix := range []string{"/v1/spaces/{spaceId}", "/v1/collections/{collectionId}"} {
		s.handle("POST "+prefix+"/permissions", s.invite(s.content))
		s.handle("GET "+prefix+"/permissions/aggregate", s.listAccess(s.content))
		s.handle("GET "+prefix+"/permissions/users", s.listUserGrants(s.content))
		s.handle("PATCH "+prefix+"/permissions/users/{userId}", s.updateGrant(s.content, "user"))
		s.handle("DELETE "+prefix+"/permissions/users/{userId}", s.removeGrant(s.content, "user"))
		s.handle("GET "+prefix+"/permissions/teams", s.listTeamGrants(s.content))
		s.handle("PATCH "+prefix+"/permissions/teams/{teamId}", s.updateGrant(s.content, "team"))
		s.handle("DELETE "+prefix+"/permissions/teams/{teamId}", s.removeGrant(s.content, "team"))
	}

	// §4.14 Teams.
	s.handle("GET /v1/orgs/{organizationId}/teams", s.listTeams)
	s.handle("PUT /v1/orgs/{organizationId}/teams", s.createTeam)
	s.handle("GET /v1/orgs/{organizationId}/teams/{teamId}", s.getTeam)
	s.handle("DELETE /v1/orgs/{organizationId}/teams/{teamId}", s.deleteTeam)
	s.handle("PATCH /v1/orgs/{organizationId}/teams/{teamId}", s.updateTeam)
	s.handle("GET /v1/orgs/{organizationId}/teams/{teamId}/members", s.listTeamMembers)
	s.handle("PUT /v1/orgs/{organizationId}/teams/{teamId}/members", s.updateTeamMembers)
	s.handle("PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", s.putTeamMember)
	s.handle("DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", s.removeTeamMember)

	// §4.15 Single sign-on. O/sso and the service provider's own endpoints
	// (start, acs, metadata) take no token: browsers reach them before they
	// have one, on their way to and from the identity provider.
	s.handle("GET /v1/orgs/{organizationId}/saml", s.listSAMLProviders)
	s.handle("POST /v1/orgs/{organizationId}/saml", s.createSAMLProvider)
	s.handle("GET /v1/orgs/{organizationId}/saml/{samlProviderId}", s.getSAMLProvider)
	s.handle("DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}", s.deleteSAMLProvider)
	s.handle("PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}", s.updateSAMLProvider)
	s.handlePublic("GET /v1/orgs/{organizationId}/sso", s.listSSOLogins)
	s.handlePublic("GET /v1/orgs/{organizationId}/saml/{samlProviderId}/start", s.startSAML)
	s.handlePublic("POST /v1/orgs/{organizationId}/saml/{samlProviderId}/acs", s.samlACS)
	s.handlePublic("GET /v1/orgs/{organizationId}/saml/{samlProviderId}/metadata", s.samlMetadata)

	// §4.16 API specifications.
	s.handle("GET /v1/orgs/{organizationId}/openapi", s.listSpecs)
	s.handleLimit("POST /v1/orgs/{organizationId}/openapi", MaxSpecBodyBytes, s.createSpec)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}", s.getSpec)
	s.handleLimit("PUT /v1/orgs/{organizationId}/openapi/{specSlug}", MaxSpecBodyBytes, s.putSpec)
	s.handle("DELETE /v1/orgs/{organizationId}/openapi/{specSlug}", s.deleteSpec)
	// Visibility and versions (issue 19): see openapiversions.go.
	s.handle("PATCH /v1/orgs/{organizationId}/openapi/{specSlug}", s.updateSpec)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions", s.listSpecVersions)
	for _, version := range []string{"/v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest", "/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}"} {
		s.handle("GET "+version, s.onSpecVersion(s.getSpecVersion))
		s.handle("GET "+version+"/content", s.onSpecVersion(s.getSpecVersionContent))
		// The reference has content/raw for the latest version only; Quire
		// answers it for every version, whose url it is for a text source.
		s.handle("GET "+version+"/content/raw", s.onSpecVersion(s.getSpecVersionRaw))
		// Not in the reference: a public spec's document, with no token.
		s.handlePublic("GET "+version+"/public", s.getPublicSpecVersion)
	}

	// §4.17 Integrations, §4.18 Translation languages. Icons and preview
	// images take no token: their URLs go into <img> tags.
	s.handle("GET /v1/integrations", s.listIntegrations)
	s.handle("GET /v1/integrations/{integrationName}", s.getIntegration)
	s.handleLimit("POST /v1/integrations/{integrationName}", MaxPublishBytes, s.publishIntegration)
	s.handle("DELETE /v1/integrations/{integrationName}", s.unpublishIntegration)
	s.handle("GET /v1/integrations/{integrationName}/installations", s.listIntegrationInstallations)
	s.handlePublic("GET /v1/integrations/{integrationName}/assets/{assetId}", s.getIntegrationAsset)
	// Installing integrations and their events (issue 19): see
	// integration_installs.go, integration_events.go, integration_orgs.go.
	s.handle("POST /v1/integrations/{integrationName}/installations", s.installIntegration)
	inst := "/v1/integrations/{integrationName}/installations/{installationId}"
	s.handle("GET "+inst, s.getIntegrationInstallation)
	s.handle("PATCH "+inst, s.updateIntegrationInstallation)
	s.handle("DELETE "+inst, s.uninstallIntegration)
	s.handle("POST "+inst+"/tokens", s.createInstallationToken)
	for _, h := range []contentHandlers{
		{s: s, kind: store.SpaceInstallations, path: "spaceId", body: "space"},
		{s: s, kind: store.SiteInstallations, path: "siteId", body: "siteId"},
	} {
		segment := "/spaces"
		if h.path == "siteId" {
			segment = "/sites"
		}
		s.handle("GET "+inst+segment, h.list)
		s.handle("POST "+inst+segment, h.install)
		s.handle("GET "+inst+segment+"/{"+h.path+"}", h.get)
		s.handle("PATCH "+inst+segment+"/{"+h.path+"}", h.update)
		s.handle("DELETE "+inst+segment+"/{"+h.path+"}", h.uninstall)
		s.handle("GET /v1/integrations/{integrationName}"+segment, h.listAll)
	}
	s.handle("GET /v1/integrations/{integrationName}/events", s.listIntegrationEvents)
	s.handle("GET /v1/integrations/{integrationName}/events/{eventId}", s.getIntegrationEvent)
	s.handle("GET /v1/orgs/{organizationId}/integrations", s.listOrgIntegrations)
	s.handle("GET /v1/orgs/{organizationId}/installations", s.listOrgInstallations)
	s.handle("GET /v1/orgs/{organizationId}/integrations/installations-status", s.listOrgInstallationsStatus)
	s.handle("GET /v1/orgs/{organizationId}/integrations/{integrationName}/installation_status", s.getOrgIntegrationStatus)
	s.handle("GET /v1/spaces/{spaceId}/integrations", s.listSpaceIntegrations)
	s.handle("GET /v1/orgs/{organizationId}/translations/{translationSettingsId}/languages", s.listTranslationLanguages)
	s.handle("GET /v1/orgs/{organizationId}/translations/{translationSettingsId}/languages/{translationLanguage}", s.getTranslationLanguage)
	s.handle("PUT /v1/orgs/{organizationId}/translations/{translationSettingsId}/languages/{translationLanguage}", s.putTranslationLanguage)
	s.handle("DELETE /v1/orgs/{organizationId}/translations/{translationSettingsId}/languages/{translationLanguage}", s.deleteTranslationLanguage)
	// Issue 19: translations run by the configured model, and the glossary
	// they keep to (translationruns.go, glossary.go).
	s.handle("GET /v1/orgs/{organizationId}/translations", s.listTranslations)
	s.handle("POST /v1/orgs/{organizationId}/translations", s.createTranslation)
	s.handle("GET /v1/orgs/{organizationId}/translations/{translationId}", s.getTranslation)
	s.handle("PUT /v1/orgs/{organizationId}/translations/{translationId}", s.updateTranslation)
	s.handle("DELETE /v1/orgs/{organizationId}/translations/{translationId}", s.deleteTranslation)
	s.handle("POST /v1/orgs/{organizationId}/translations/{translationId}/run", s.runTranslation)
	s.handle("GET /v1/orgs/{organizationId}/translations-glossary", s.listGlossaryEntries)
	s.handle("PUT /v1/orgs/{organizationId}/translations-glossary", s.updateGlossaryEntries)
	s.handle("GET /v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}", s.getGlossaryEntry)

	// §4.19 AI questions.
	s.handle("POST /v1/orgs/{organizationId}/ask", s.ask)
	s.handle("GET /v1/orgs/{organizationId}/ask/stream", s.askStream)
	s.handle("GET /v1/orgs/{organizationId}/ask/questions", s.recommendedQuestions)
	s.handle("GET /v1/orgs/{organizationId}/ask/questions/stream", s.recommendedQuestionsStream)

	// Outgoing webhooks (Quire's extra; organization admins).
	s.handle("GET /v1/orgs/{organizationId}/webhooks", s.listWebhooks)
	s.handle("POST /v1/orgs/{organizationId}/webhooks", s.createWebhook)
	s.handle("GET /v1/orgs/{organizationId}/webhooks/{webhookId}", s.getWebhook)
	s.handle("PATCH /v1/orgs/{organizationId}/webhooks/{webhookId}", s.updateWebhook)
	s.handle("DELETE /v1/orgs/{organizationId}/webhooks/{webhookId}", s.deleteWebhook)
	s.handle("POST /v1/orgs/{organizationId}/webhooks/{webhookId}/test", s.testWebhook)
	s.handle("GET /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries", s.listWebhookDeliveries)
	s.handle("GET /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}", s.getWebhookDelivery)
	s.handle("POST /v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver", s.redeliverWebhookDelivery)
	// API tokens (tokens.go): not in the reference.
	s.handle("GET /v1/user/tokens", s.listUserTokens)
	s.handle("DELETE /v1/user/tokens/{tokenId}", s.revokeUserToken)
	s.handle("GET /v1/orgs/{organizationId}/tokens", s.listOrgTokens)
	s.handle("DELETE /v1/orgs/{organizationId}/tokens/{tokenId}", s.revokeOrgToken)

	// Issue 19: the organization's audit log (audit.go).
	s.handle("GET /v1/orgs/{organizationId}/audit-events", s.listAuditEvents)
	s.handle("GET /v1/orgs/{organizationId}/audit-events/{auditEventId}", s.getAuditEvent)
	s.handle("GET /v1/orgs/{organizationId}/audit-event-actions", s.listAuditEventActions)
	// Issue 19: import runs, websites imported as durable jobs
	// (importruns.go); the reference's path has /org/, not /orgs/.
	s.handle("GET /v1/org/{organizationId}/imports", s.listImportRuns)
	s.handle("POST /v1/org/{organizationId}/imports", s.startImportRun)
	s.handle("GET /v1/org/{organizationId}/imports/{importRunId}", s.getImportRun)
	s.handle("POST /v1/org/{organizationId}/imports/{importRunId}/cancel", s.cancelImportRun)
	// Issue 19: the API's information (exactly /v1/: the mux's "/" answers
	// the rest), organizations by e-mail domain and joining one (apiinfo.go).
	s.handlePublic("GET /v1/{$}", s.getAPIInfo)
	s.handle("GET /v1/email-domains/{emailDomain}/orgs", s.listOrgsForEmailDomain)
	s.handle("GET /v1/subdomains/{subdomain}", s.getSubdomain)
	s.handle("POST /v1/orgs/{organizationId}/join", s.joinOrg)
	// Issue 19: what a URL of the app or of a published site shows (urls.go).
	s.handle("GET /v1/urls/content", s.getContentByURL)
	s.handle("GET /v1/urls/embed", s.getEmbedByURL)
	s.handlePublic("GET /v1/urls/published", s.getPublishedContentByURL)
	s.handlePublic("POST /v1/urls/published", s.postPublishedContentByURL)
	// Issue 19: sites' custom hostnames and their DNS (customhostnames.go).
	s.handle("GET /v1/custom-hostnames/{hostname}", s.getCustomHostname)
	s.handle("PATCH /v1/custom-hostnames/{hostname}", s.dnsRevalidateCustomHostname)
	s.handle("DELETE /v1/custom-hostnames/{hostname}", s.removeCustomHostname)
	// Issue 19: an organization's custom fonts (fonts.go); their files need
	// no token, for published sites' pages.
	s.handle("GET /v1/orgs/{organizationId}/fonts", s.listFonts)
	s.handle("PUT /v1/orgs/{organizationId}/fonts", s.createFont)
	s.handle("GET /v1/orgs/{organizationId}/fonts/{fontId}", s.getFont)
	s.handle("POST /v1/orgs/{organizationId}/fonts/{fontId}", s.updateFont)
	s.handle("DELETE /v1/orgs/{organizationId}/fonts/{fontId}", s.deleteFont)
	s.handlePublic("GET /v1/orgs/{organizationId}/fonts/{fontId}/files/{weight}", s.getFontFile)
}
