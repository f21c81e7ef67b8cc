package app

import "github.com/quiredocs/quire"

// routes registers every page of the app. The addresses the API links to
// (urls.app) are quire's App*Path patterns, so links and routes agree.
func (s *Server) routes() {
	s.handle("GET /~app/~assets/{hash}/{name}", s.serveAsset)

	s.handle("GET /signin", s.signInPage)
	s.handle("POST /signin/token", s.signInWithToken)
	s.handle("GET /signin/link", s.loginLinkPage)
	s.handle("POST /signin/link", s.signInWithLink)
	s.handleSignedIn("POST /signout", s.signOut)
	s.handleSignedIn("POST /signout/everywhere", s.signOutEverywhere)
	s.handleSignedIn("GET /tokens", s.tokensPage)
	s.handleSignedIn("POST /tokens", s.createToken)
	s.handleSignedIn("POST /tokens/{hash}/revoke", s.revokeToken)

	s.handleSignedIn("GET /{$}", s.home)
	s.handleSignedIn("GET "+quire.AppOrgPath, s.orgPage)
	s.handleSignedIn("GET "+quire.AppOrgPath+"/search", s.searchPage)
	s.handleSignedIn("GET "+quire.AppCollectionPath, s.collectionPage)
	s.handleSignedIn("GET "+quire.AppSpacePath, s.spacePage)
	s.handleSignedIn("GET "+quire.AppPagePath, s.spacePage)
	s.handleSignedIn("GET "+quire.AppRevisionPath, s.revisionPage)
	s.handleSignedIn("GET "+filePath, s.serveFile)
	s.handleSignedIn("GET "+quire.AppCommentPath, s.commentPage)
	s.handleSignedIn("GET "+quire.AppSitePath, s.sitePage)
	s.handleSignedIn("GET "+quire.AppOpenAPIPath, s.openAPIPage)
	s.handleSignedIn("GET "+quire.AppInstallationPath, s.installationPage)
	s.handleSignedIn("GET "+quire.AppIntegrationPath, s.integrationPage)
	s.editRoutes()
	s.settingsRoutes()
	s.changeRequestRoutes()
	s.inviteRoutes()
}
