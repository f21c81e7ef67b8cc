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
