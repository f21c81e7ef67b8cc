package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Teams is page p of organization orgID's teams whose title holds title
// (any case) and, when owner is not nil, that the member *owner can manage
// (all for an admin, else those they own); an owner who is not a member is
// CodeInvalid, a fault of the query.
func (a *Author) Teams(ctx context.Context, orgID, title string, owner *string, p store.Page) (*store.List[*quire.Team], error) {
	f := store.TeamFilter{Title: title}
	if owner != nil {
		var err error
		if f.ManagedBy, err = a.DB.Member(ctx, orgID, *owner); err != nil {
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return nil, quire.Errorf(quire.CodeInvalid, "owner: not a member of the organization")
			}
			return nil, err
		}
	}
	return a.DB.ListTeams(ctx, orgID, f, p)
}
