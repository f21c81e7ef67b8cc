package api

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
