package api

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/ratelimit"
	"github.com/quiredocs/quire/store"
)

// OrgCreation says who may create organizations with POST /v1/orgs
// (quire.OrgCreation).
type OrgCreation = quire.OrgCreation

// The settings of OrgCreation.
const (
	OrgCreationAnyone  = quire.OrgCreationAnyone
	OrgCreationMembers = quire.OrgCreationMembers
	OrgCreationNone    = quire.OrgCreationNone
)

// ParseOrgCreation reads a setting of --org-creation; "" is anyone.
func ParseOrgCreation(s string) (OrgCreation, error) { return quire.ParseOrgCreation(s) }

// Organizations one user may create through the API per window; more are
// answered 429 until the oldest leaves the window.
const (
	MaxOrgsPerWindow  = 10
	OrgCreationWindow = time.Hour
)

// orgCreation is who may create organizations, and how many each has
// created lately.
type orgCreation struct {
	who  OrgCreation
	now  func() time.Time
	made *ratelimit.Window // by user id
}

func newOrgCreation(who OrgCreation) *orgCreation {
	return &orgCreation{who: who, now: time.Now, made: ratelimit.New(MaxOrgsPerWindow, OrgCreationWindow)}
}

// allow answers 403 unless the policy lets the user create organizations.
func (c *orgCreation) allow(ctx context.Context, db *store.DB, u *quire.User) error {
	return c.who.Check(func() (bool, error) { return db.MemberSomewhere(ctx, u.ID) })
}

// reserve counts one creation by the user, or answers 429 with Retry-After
// when they have made MaxOrgsPerWindow within the window. release takes the
// count back, for a creation that then failed.
func (c *orgCreation) reserve(w http.ResponseWriter, userID string) (release func(), err error) {
	release, wait := c.made.Reserve(userID, c.now())
	if release != nil {
		return release, nil
	}
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	return nil, errorf(quire.CodeTooManyRequests, "at most %d organizations may be created per hour; try again in %d minutes",
		MaxOrgsPerWindow, int(math.Ceil(wait.Minutes())))
}
