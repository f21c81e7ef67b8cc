package api

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// Moves in a site's structure (Contract §4.9–§4.11): a section, a section
// group or a site space goes before or after a sibling. The three operations
// differ only in what they move and which siblings they take.

// siteMove is one move operation: the path parameter naming the item moved,
// and the pointers it takes as the sibling to stand by: their kinds, and the
// pointer key that holds the sibling's id.
type siteMove struct {
	param string
	kinds []string
	key   string
}

var (
	moveSection      = siteMove{param: "siteSectionId", kinds: []string{"site-section"}, key: "siteSection"}
	moveSectionGroup = siteMove{param: "siteSectionGroupId", kinds: []string{"site-section", "site-section-group"}, key: "id"}
	moveSiteSpace    = siteMove{param: "siteSpaceId", kinds: []string{"site-space"}, key: "siteSpace"}
)

// sitePointerJSON names an item of a site in a move: {"type": kind, key: id}.
type sitePointerJSON struct {
	Type        string `json:"type"`
	ID          string `json:"id"`
	SiteSection string `json:"siteSection"`
	SiteSpace   string `json:"siteSpace"`
}

// sibling is the sibling p names, or nil when it is not one m takes.
func (m siteMove) sibling(p *sitePointerJSON) *quire.Sibling {
	var id string
	switch m.key {
	case "id":
		id = p.ID
	case "siteSection":
		id = p.SiteSection
	case "siteSpace":
		id = p.SiteSpace
	}
	if id == "" || !slices.Contains(m.kinds, p.Type) {
		return nil
	}
	return &quire.Sibling{Kind: p.Type, ID: id}
}

// pointerShape is the pointer m takes, as the 400 for another one says it:
// {"type":"site-section" or "site-section-group","id":ID}.
func (m siteMove) pointerShape() string {
	return `{"type":"` + strings.Join(m.kinds, `" or "`) + `","` + m.key + `":ID}`
}

// readSitePosition reads the body {"position": {"before"|"after": pointer}}
// of a move; no body, or no position, leaves the position empty.
func readSitePosition(w http.ResponseWriter, r *http.Request, m siteMove) (quire.Position, error) {
	var body struct {
		Position *struct {
			Before *sitePointerJSON `json:"before"`
			After  *sitePointerJSON `json:"after"`
		} `json:"position"`
	}
	var pos quire.Position
	if err := readJSON(w, r, &body); err != nil || body.Position == nil {
		return pos, err
	}
	if body.Position.Before != nil && body.Position.After != nil {
		return pos, errorf(quire.CodeInvalid, "position: give before or after, not both")
	}
	for _, p := range []struct {
		field string
		ptr   *sitePointerJSON
		dst   **quire.Sibling
	}{{"position.before", body.Position.Before, &pos.Before}, {"position.after", body.Position.After, &pos.After}} {
		if p.ptr == nil {
			continue
		}
		if *p.dst = m.sibling(p.ptr); *p.dst == nil {
			return pos, errorf(quire.CodeInvalid, "%s: must be %s", p.field, m.pointerShape())
		}
	}
	return pos, nil
}

// moveSiteItem answers a move: managers only (role create), then the
// position, then move in the store; 200 with the item as show shapes it. A
// function, not a method, because methods take no type parameters.
func moveSiteItem[T, J any](s *Server, w http.ResponseWriter, r *http.Request, m siteMove,
	move func(ctx context.Context, siteID, id string, pos quire.Position) (T, error), show func(*wire.SiteRenderer, T) J) error {
	site, v, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	pos, err := readSitePosition(w, r, m)
	if err != nil {
		return err
	}
	item, err := move(r.Context(), site.ID, r.PathValue(m.param), pos)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, show(s.wire.SiteRenderer(site, v), item))
}
