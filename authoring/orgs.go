package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// Membership is an organization with a user's membership of it, which
// says what they may do there.
type Membership struct {
	Org    *quire.Organization
	Member *quire.Member
}

// UserOrganizations is page p of the organizations user userID belongs to,
// each with their membership.
func (a *Author) UserOrganizations(ctx context.Context, userID string, p store.Page) (*store.List[Membership], error) {
	list, err := a.DB.ListUserOrganizations(ctx, userID, p)
	if err != nil {
		return nil, err
	}
	out := &store.List[Membership]{Items: make([]Membership, 0, len(list.Items)), Count: list.Count, Next: list.Next}
	// Permissions are per organization; a user's memberships are few.
	for _, o := range list.Items {
		m, err := a.DB.Member(ctx, o.ID, userID)
		if err != nil {
			return nil, err
		}
		out.Items = append(out.Items, Membership{Org: o, Member: m})
	}
	return out, nil
}

// CreateOrganization creates an organization whose admin is user ownerID,
// and returns it with their membership.
func (a *Author) CreateOrganization(ctx context.Context, title string, emailDomains []string, ownerID string) (Membership, error) {
	org, err := a.DB.CreateOrganization(ctx, title, emailDomains, ownerID)
	if err != nil {
		return Membership{}, err
	}
	m, err := a.DB.Member(ctx, org.ID, ownerID)
	return Membership{Org: org, Member: m}, err
}

// UpdateOrganization changes member me's organization as u says (me is an
// admin: the caller's to check), and returns it with me's membership as it
// is after the change (a default role or SSO change may change it).
func (a *Author) UpdateOrganization(ctx context.Context, me *quire.Member, u store.OrganizationUpdate) (Membership, error) {
	org, err := a.DB.UpdateOrganization(ctx, me.OrgID, u)
	if err != nil {
		return Membership{}, err
	}
	m, err := a.DB.Member(ctx, me.OrgID, me.User.ID)
	return Membership{Org: org, Member: m}, err
}
