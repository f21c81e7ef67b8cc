package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire/store"
)

// API tokens (not in the reference, which has no operations on personal
// tokens): a user lists and revokes their own; an organization admin lists
// and revokes those of the accounts the organization manages
// (users.managed_by), and no other: a member's own account may hold tokens
// used for other organizations, not the admin's to revoke. A token is named
// by the SHA-256 of its secret, in hex, as the app's tokens page names it;
// the secret is never shown again. Revocation commits a change, which every
// server hears of at once (store/changes.go), so the token stops working
// everywhere with the next request.

// listUserTokens answers GET /v1/user/tokens: the caller's tokens.
func (s *Server) listUserTokens(w http.ResponseWriter, r *http.Request) error {
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[store.OwnedToken], error) {
		return s.db.ListUserTokens(ctx, caller(ctx).ID, p)
	}, s.wire.Token)
}

// revokeUserToken answers DELETE /v1/user/tokens/{tokenId}: one of the
// caller's tokens, perhaps the one of this very request.
func (s *Server) revokeUserToken(w http.ResponseWriter, r *http.Request) error {
	if err := s.db.RevokeToken(r.Context(), caller(r.Context()).ID, r.PathValue("tokenId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// listOrgTokens answers GET /v1/orgs/{organizationId}/tokens, for admins:
// the tokens of the accounts the organization manages.
func (s *Server) listOrgTokens(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	if err := requireAdmin(me); err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[store.OwnedToken], error) {
		return s.db.ListManagedTokens(ctx, me.OrgID, p)
	}, s.wire.Token)
}

// revokeOrgToken answers DELETE /v1/orgs/{organizationId}/tokens/{tokenId},
// for admins: a token of an account the organization manages.
func (s *Server) revokeOrgToken(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	if err := requireAdmin(me); err != nil {
		return err
	}
	if err := s.db.RevokeManagedToken(r.Context(), me.OrgID, r.PathValue("tokenId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}
