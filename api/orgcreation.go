package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// OrgCreation says who may create organizations with POST /v1/orgs.
// Whatever it says, `quire admin init` creates them.
type OrgCreation string

const (
	// OrgCreationAnyone lets any token holder, a guest included, create
	// organizations, as GitBook does. It is the default ("" means it too).
	OrgCreationAnyone OrgCreation = "anyone"
	// OrgCreationMembers lets members of some organization create them, but
	// not guests, nor users who belong to none.
	OrgCreationMembers OrgCreation = "members"
	// OrgCreationNone lets nobody create them through the API.
	OrgCreationNone OrgCreation = "none"
)

// ParseOrgCreation reads a setting of --org-creation; "" is anyone.
func ParseOrgCreation(s string) (OrgCreation, error) {
	switch o := OrgCreation(s); o {
	case "":
		return OrgCreationAnyone, nil
	case OrgCreationAnyone, OrgCreationMembers, OrgCreationNone:
		return o, nil
	}
	return "", fmt.Errorf("org creation %q: must be anyone, members or none", s)
}

// Organizations one user may create through the API per window; more are
// answered 429 until the oldest leaves the window.
const (
	MaxOrgsPerWindow  = 10
	OrgCreationWindow = time.Hour
)

// orgCreation is who may create organizations, and how many each has
// created lately.
type orgCreation struct {
	who   OrgCreation // an unknown value lets nobody, as none
	mu    sync.Mutex
	now   func() time.Time
	made  map[string][]time.Time // by user id: creations within the window, oldest first
	sweep time.Time              // when users with none left in the window were last dropped
}

func newOrgCreation(who OrgCreation) *orgCreation {
	if who == "" {
		who = OrgCreationAnyone
	}
	return &orgCreation{who: who, now: time.Now, made: map[string][]time.Time{}}
}

// allow answers 403 unless the policy lets the user create organizations.
func (c *orgCreation) allow(ctx context.Context, db *store.DB, u *quire.User) error {
	switch c.who {
	case OrgCreationAnyone:
		return nil
	case OrgCreationMembers:
		member, err := memberSomewhere(ctx, db, u.ID)
		if err != nil || member {
			return err
		}
		return errorf(quire.CodeForbidden, "on this server only members of an organization, not guests, may create organizations")
	}
	return errorf(quire.CodeForbidden, "on this server organizations are not created through the API; its operators create them")
}

// memberSomewhere reports whether a user is an enabled member, not a guest,
// of at least one organization.
func memberSomewhere(ctx context.Context, db *store.DB, userID string) (bool, error) {
	p := store.Page{Limit: 100}
	for {
		list, err := db.ListUserOrganizations(ctx, userID, p)
		if err != nil {
			return false, err
		}
		for _, o := range list.Items {
			m, err := db.Membership(ctx, o.ID, userID)
			if err != nil {
				return false, err
			}
			if m.Role != quire.RoleGuest && !m.Disabled {
				return true, nil
			}
		}
		if list.Next == nil {
			return false, nil
		}
		p.After = list.Next
	}
}

// reserve counts one creation by the user, or answers 429 with Retry-After
// when they have made MaxOrgsPerWindow within the window. release takes the
// count back, for a creation that then failed.
func (c *orgCreation) reserve(w http.ResponseWriter, userID string) (release func(), err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	since := now.Add(-OrgCreationWindow)
	if now.Sub(c.sweep) > OrgCreationWindow {
		for id, times := range c.made {
			if len(times) == 0 || !times[len(times)-1].After(since) {
				delete(c.made, id)
			}
		}
		c.sweep = now
	}
	times := c.made[userID]
	for len(times) > 0 && !times[0].After(since) {
		times = times[1:]
	}
	if len(times) >= MaxOrgsPerWindow {
		c.made[userID] = times
		wait := times[0].Add(OrgCreationWindow).Sub(now)
		secs := int(math.Ceil(wait.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(secs))
		return nil, errorf(quire.CodeTooManyRequests, "at most %d organizations may be created per hour; try again in %d minutes",
			MaxOrgsPerWindow, int(math.Ceil(wait.Minutes())))
	}
	c.made[userID] = append(times, now)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		times := c.made[userID]
		for i := len(times) - 1; i >= 0; i-- {
			if times[i].Equal(now) {
				c.made[userID] = append(times[:i:i], times[i+1:]...)
				return
			}
		}
	}, nil
}
