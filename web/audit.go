package web

import (
	"net"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// AuditIntent is the audit intent (store.AuditIntent) of a write request r
// of user, from source: the API and the app both make theirs here, so that
// both name actions and targets from their routes alike. r must have been
// routed (r.Pattern set).
func AuditIntent(r *http.Request, user *quire.User, source string) *store.AuditIntent {
	_, pattern, _ := strings.Cut(r.Pattern, " ")
	a := &store.AuditIntent{
		Event: quire.AuditEvent{Action: quire.AuditActionOf(r.Method, pattern), Source: source,
			ActorType: "user", ActorID: user.ID, ActorLabel: user.DisplayName,
			IP: ClientIP(r), Method: r.Method, Path: r.URL.Path},
		OrgID: r.PathValue("organizationId"), SpaceID: r.PathValue("spaceId"),
		CollectionID: r.PathValue("collectionId"), IntegrationName: r.PathValue("integrationName"),
	}
	a.Event.TargetType, a.Event.TargetID = quire.AuditTargetOf(pattern, r.PathValue)
	return a
}

// ClientIP is r's client address as the connection gives it: like the rate
// limits, the audit log trusts no proxy's X-Forwarded-For.
func ClientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
