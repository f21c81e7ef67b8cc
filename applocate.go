package quire

import (
	"context"
	"net/http"
	"net/url"
	"strings"
)

// AppTarget is what an address of the app names: a collection, or a space
// with, as the address gives them, a change request, a revision, a comment
// and the slug path of a page. Fields the address does not give are "".
type AppTarget struct {
	CollectionID, SpaceID, ChangeRequestID, RevisionID, CommentID, Path string
}

// LocateAppURL is what u names when it is an address of the app at host
// (compared without case) of a collection, a space, a page, a change
// request, the editor, a revision or a comment; false for any other. It
// reads only the address: whether its content exists, and who may see it,
// is the caller's to find out.
func LocateAppURL(u *url.URL, host string) (AppTarget, bool) {
	if !strings.EqualFold(u.Host, host) {
		return AppTarget{}, false
	}
	probe, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, u.EscapedPath(), nil)
	if _, pattern := appURLs.Handler(probe); pattern == "" {
		return AppTarget{}, false
	}
	var match appMatch
	appURLs.ServeHTTP(&match, probe)
	return match.target, true
}

// appURLs matches the app's content addresses (the patterns are the app's
// own routes), giving their wildcards.
var appURLs = func() *http.ServeMux {
	mux := http.NewServeMux()
	for _, p := range []string{AppCollectionPath, AppSpacePath, AppPagePath, AppChangeRequestPath,
		AppEditPath, AppRevisionPath, AppCommentPath} {
		mux.HandleFunc("GET "+p, func(w http.ResponseWriter, r *http.Request) { w.(*appMatch).from(r) })
	}
	return mux
}()

// appMatch is what appURLs answers: the wildcards of the pattern matched.
type appMatch struct {
	http.ResponseWriter
	target AppTarget
}

func (m *appMatch) from(r *http.Request) {
	m.target = AppTarget{CollectionID: r.PathValue("collectionId"), SpaceID: r.PathValue("spaceId"),
		ChangeRequestID: r.PathValue("changeRequestId"), RevisionID: r.PathValue("revisionId"),
		CommentID: r.PathValue("commentId"), Path: r.PathValue("path")}
}
