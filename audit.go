package quire

import (
	"strings"
	"time"
)

// AuditEvent is one recorded write of the API or the app: who did what to
// which resource, when and from where. An event belongs to one
// organization; a write of no organization's (a user's own token) is
// recorded in each organization its author is a member of.
type AuditEvent struct {
	ID          string // a UUID, as the reference's auditEventId
	OrgID       string
	OccurredAt  time.Time
	Action      string // e.g. "space.create"; AuditActionOf
	Source      string // "api" or "ui" (the app)
	ActorType   string // "user"
	ActorID     string
	ActorLabel  string // the actor's name when the event was recorded
	TargetType  string // e.g. "space"; AuditTargetOf
	TargetID    string
	TargetLabel string
	IP          string // the client address as the connection gives it
	RequestID   string // the request's X-Request-Id, as executionId
	Method      string
	Path        string
}

// Audit sources: the entry point of a change, as the reference names them.
const (
	AuditSourceAPI = "api"
	AuditSourceApp = "ui"
)

// AuditActionOf names the action of a write route from its method and
// path pattern, so that every route has one without a table to keep in
// step: the resource is the last collection the path names, singular, and
// the verb the path's last word when it is one (merge, move, publish), else
// the method's (create, update, delete). "POST /v1/orgs/{organizationId}/spaces"
// is space.create, "POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge"
// change-request.merge, "PATCH /v1/orgs/{organizationId}/members/{userId}"
// member.update.
func AuditActionOf(method, pattern string) string {
	path := strings.TrimPrefix(pattern, "/v1")
	var segs []string
	for _, s := range strings.Split(path, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	verb := map[string]string{"POST": "create", "PUT": "update", "PATCH": "update", "DELETE": "delete"}[method]
	n := len(segs)
	if n == 0 {
		return verb
	}
	last := segs[n-1]
	isParam := func(s string) bool { return strings.HasPrefix(s, "{") }
	switch {
	case isParam(last):
		// A resource by id: /spaces/{spaceId}; posting to one changes it.
		if verb == "create" {
			verb = "update"
		}
		if n >= 2 && !isParam(segs[n-2]) {
			return singular(segs[n-2]) + "." + verb
		}
		return strings.Trim(last, "{}.") + "." + verb
	case method == "PUT" && isCollection(last):
		// PUT O/teams, PUT O/fonts create.
		return singular(last) + ".create"
	case n >= 2 && isParam(segs[n-2]):
		// A word posted to a resource: /change-requests/{id}/merge; a
		// collection below one (/sites/{id}/redirects) is created in.
		if method == "POST" && n >= 3 && !isParam(segs[n-3]) && !isCollection(last) {
			return singular(segs[n-3]) + "." + last
		}
		return singular(last) + "." + verb
	case n >= 2 && method == "POST" && !isCollection(last):
		// Two words: /content/import, /publishing/auth/regenerate.
		return singular(segs[n-2]) + "." + last
	default:
		return singular(last) + "." + verb
	}
}

// isCollection tells a path's plural nouns (spaces, redirects) from its
// verbs (merge, publish): a collection is created in, a verb is done.
func isCollection(word string) bool {
	switch word {
	case "sso", "access", "status", "content", "auth", "git", "customization", "publishing":
		return false
	case "openapi", "saml":
		return true
	}
	return strings.HasSuffix(word, "s") && !strings.HasSuffix(word, "ss")
}

// singular is a path's noun in the singular: spaces → space, replies →
// reply, orgs → organization.
func singular(word string) string {
	switch word {
	case "orgs", "o":
		return "organization"
	case "s":
		return "space"
	case "c":
		return "collection"
	case "changes":
		return "change-request"
	}
	if w, ok := strings.CutSuffix(word, "ies"); ok {
		return w + "y"
	}
	if strings.HasSuffix(word, "ss") {
		return word
	}
	return strings.TrimSuffix(word, "s")
}

// AuditActionLabel is an action's label for people: "space.create" is
// "Create space".
func AuditActionLabel(action string) string {
	resource, verb, _ := strings.Cut(action, ".")
	if verb == "" {
		return action
	}
	return strings.ToUpper(verb[:1]) + strings.ReplaceAll(verb[1:], "-", " ") + " " + strings.ReplaceAll(resource, "-", " ")
}

// AuditTargetOf is the resource a write route acts on: the last path
// parameter of pattern, its type named from the parameter (spaceId is a
// space, changeRequestId a change-request), its id what value gives for it.
// A route with no parameter has no target ("", "").
func AuditTargetOf(pattern string, value func(name string) string) (typ, id string) {
	i := strings.LastIndexByte(pattern, '{')
	if i < 0 {
		return "", ""
	}
	j := strings.IndexByte(pattern[i:], '}')
	if j < 0 {
		return "", ""
	}
	name := strings.TrimSuffix(pattern[i+1:i+j], "...")
	base := strings.TrimSuffix(name, "Id")
	switch base {
	case "organization":
	case "user":
		// Users are reached under an organization as its members.
		if strings.Contains(pattern, "/members/") {
			base = "member"
		}
	}
	var b strings.Builder
	for k, r := range base {
		if 'A' <= r && r <= 'Z' {
			if k > 0 {
				b.WriteByte('-')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String(), value(name)
}
