package site

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Visitor is who reads a published site, as far as the site can tell.
type Visitor struct {
	Member bool           // a member of the site's organization: sees everything
	Claims map[string]any // claims of the visitor's verified token; nil when none
}

// Sees reports whether the visitor sees what condition guards ("" for
// nothing: always seen).
func (v *Visitor) Sees(condition string) bool { return condition == "" || v.Member }

// access decides who may read a site.
type access struct {
	db *store.DB
}

func newAccess(db *store.DB) *access { return &access{db: db} }

// shareCookie keeps a share-link visitor's key between pages.
const shareCookie = "quire_share"

// admit decides whether r may read site, setting the cookies that keep a
// visitor admitted; what it refuses is quire.CodeNotFound, so nothing tells
// that a site exists to whom may not read it.
func (a *access) admit(w http.ResponseWriter, r *http.Request, site *quire.Site) (*Visitor, error) {
	switch site.Visibility {
	case quire.VisibilityPublic, quire.VisibilityUnlisted:
		return &Visitor{}, nil
	case quire.VisibilityShareLink:
		key := r.URL.Query().Get("share")
		if key == "" {
			key = r.URL.Query().Get("shareKey")
		}
		if key != "" && key == site.ShareKey {
			http.SetCookie(w, &http.Cookie{Name: shareCookie, Value: key, Path: "/", HttpOnly: true, Secure: r.TLS != nil, SameSite: http.SameSiteLaxMode})
			return &Visitor{}, nil
		}
		if c, err := r.Cookie(shareCookie); err == nil && c.Value == site.ShareKey && site.ShareKey != "" {
			return &Visitor{}, nil
		}
	}
	return nil, quire.Errorf(quire.CodeNotFound, "site not found")
}
