package api

import "net/http"

// routes lists every route, in contract order: the API's map.
func (s *Server) routes() {
	s.handlePublic("GET /healthz", s.healthz)

	// Users and organizations (extras beyond the contract, shapes from the reference).
	s.handle("GET /v1/user", s.getCurrentUser)
	s.handle("GET /v1/users/{userId}", s.getUser)
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
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes", viewHandler(s.changeRequestView, s.getChangeRequestChanges))

	// §4.4 Change request content, §4.5 space content, and revisions by id.
	s.handleLimit("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content", MaxBatchBytes, s.editChangeRequestContent)
	for prefix, load := range map[string]func(*http.Request) (*view, error){
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
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}", viewHandler(s.revisionView, s.getRevision))
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/pages", viewHandler(s.revisionView, s.listPages))
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}", viewHandler(s.revisionView, s.getPage))
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes", viewHandler(s.revisionView, s.getRevisionChanges))
	// Not in the reference: the bytes behind each file's downloadURL.
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/files/{fileId}/download", viewHandler(s.revisionView, s.downloadFile))

	// §4.6 Spaces.
	s.handle("GET /v1/spaces/{spaceId}", s.getSpace)
	s.handle("DELETE /v1/spaces/{spaceId}", s.deleteSpace)
	s.handle("PATCH /v1/spaces/{spaceId}", s.updateSpace)
	s.handle("POST /v1/spaces/{spaceId}/duplicate", s.duplicateSpace)
	s.handle("POST /v1/spaces/{spaceId}/restore", s.restoreSpace)
	s.handle("POST /v1/spaces/{spaceId}/move", s.moveSpace)
	s.handle("POST /v1/spaces/{spaceId}/transfer", s.transferSpace)

	// §4.7 Collections.
	s.handle("GET /v1/collections/{collectionId}", s.getCollection)
	s.handle("DELETE /v1/collections/{collectionId}", s.deleteCollection)
	s.handle("PATCH /v1/collections/{collectionId}", s.updateCollection)
	s.handle("GET /v1/collections/{collectionId}/spaces", s.listCollectionSpaces)
	s.handle("POST /v1/collections/{collectionId}/move", s.moveCollection)
	s.handle("POST /v1/collections/{collectionId}/transfer", s.transferCollection)
	s.handle("GET /v1/orgs/{organizationId}/collections", s.listCollections)
	s.handle("POST /v1/orgs/{organizationId}/collections", s.createCollection)

	// Space and collection grants (extras, shapes from the reference).
	for _, prefix := range []string{"/v1/spaces/{spaceId}", "/v1/collections/{collectionId}"} {
		s.handle("POST "+prefix+"/permissions", s.inviteToContent)
		s.handle("GET "+prefix+"/permissions/aggregate", s.listContentAccess)
		s.handle("GET "+prefix+"/permissions/users", s.listUserGrants)
		s.handle("PATCH "+prefix+"/permissions/users/{userId}", s.updateGrant("user"))
		s.handle("DELETE "+prefix+"/permissions/users/{userId}", s.removeGrant("user"))
		s.handle("GET "+prefix+"/permissions/teams", s.listTeamGrants)
		s.handle("PATCH "+prefix+"/permissions/teams/{teamId}", s.updateGrant("team"))
		s.handle("DELETE "+prefix+"/permissions/teams/{teamId}", s.removeGrant("team"))
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
}
