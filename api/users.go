package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// PATCH /users/{userId} (the reference's updateUserById): people change
// their own display name and photo, nobody else's. Another user the caller
// shares an organization with is 403; anyone else is 404, as GET answers.

// userUpdateRequest is the body of PATCH /users/{userId}.
type userUpdateRequest struct {
	DisplayName quire.Optional[string] `json:"displayName"`
	PhotoURL    quire.Optional[string] `json:"photoURL"` // null removes the photo
}

func (b *userUpdateRequest) Validate() error {
	if !b.DisplayName.Set && !b.PhotoURL.Set {
		return errorf(quire.CodeInvalid, "body: give displayName or photoURL")
	}
	return quire.FirstError(
		quire.CheckOptionalLen("displayName", b.DisplayName, 1, quire.MaxDisplayName),
		quire.CheckRemovable(b.PhotoURL, func(v string) error { return quire.CheckAbsoluteURL("photoURL", v, quire.MaxPhotoURL) }),
	)
}

func (s *Server) updateUser(w http.ResponseWriter, r *http.Request) error {
	me, id := caller(r.Context()), r.PathValue("userId")
	if id != me.ID {
		shared, err := s.db.ShareOrganization(r.Context(), me.ID, id)
		if err != nil {
			return err
		}
		if !shared {
			return errorf(quire.CodeNotFound, "user not found")
		}
		return errorf(quire.CodeForbidden, "you may change only your own profile")
	}
	var body userUpdateRequest
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	u, err := s.db.UpdateUser(r.Context(), me.ID, store.UserUpdate{DisplayName: body.DisplayName.Ptr(), PhotoURL: body.PhotoURL.Ptr()})
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.User(u))
}
