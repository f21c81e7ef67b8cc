package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// Moves in a site's structure (Contract §4.9–§4.11): a section, a section
// group or a site space goes before or after a sibling. The three operations
// differ only in what they move and which siblings they take.

// siteMove is one move operation: the path parameter naming the item moved,
// and the siblings it may stand by.
type siteMove struct {
	param    string
	siblings wire.SiteMoveSiblings
}

var (
	moveSection      = siteMove{param: "siteSectionId", siblings: wire.SiteMoveSiblings{Kinds: []string{"site-section"}, Key: "siteSection"}}
	moveSectionGroup = siteMove{param: "siteSectionGroupId", siblings: wire.SiteMoveSiblings{Kinds: []string{"site-section", "site-section-group"}, Key: "id"}}
	moveSiteSpace    = siteMove{param: "siteSpaceId", siblings: wire.SiteMoveSiblings{Kinds: []string{"site-space"}, Key: "siteSpace"}}
)

// moveSiteItem answers a move: managers only (role create), then the
// position, then move in the store; 200 with the item as show shapes it. A
// function, not a method, because methods take no type parameters.
func moveSiteItem[T, J any](s *Server, w http.ResponseWriter, r *http.Request, m siteMove,
	move func(ctx context.Context, siteID, id string, pos quire.Position) (T, error), show func(*wire.SiteRenderer, T) J) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	body := wire.MoveSiteItem{Siblings: m.siblings}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	item, err := move(r.Context(), site.ID, r.PathValue(m.param), body.Pos())
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, show(s.wire.SiteRenderer(site, v), item))
}
