package wire

import (
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/jsonappend"
)

// Time formats a timestamp as ISO 8601 in UTC with milliseconds.
func Time(t time.Time) string { return t.UTC().Format(jsonappend.TimeLayout) }

// OptTime is Time, or "" (omitted) for the zero time: never.
func OptTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return Time(t)
}

// Role is a role, or null for guests.
func Role(r quire.Role) *string {
	if r == quire.RoleGuest {
		return nil
	}
	s := string(r)
	return &s
}

// URLs is how the API shows the addresses of an object: in the API and in
// the app.
type URLs struct {
	Location string `json:"location,omitempty"`
	App      string `json:"app,omitempty"`
}

// Location is how the API shows the address of an object in the API.
type Location struct {
	Location string `json:"location"`
}

// ViewEdit is how the API shows whether the caller may view and edit an
// object.
type ViewEdit struct {
	View bool `json:"view"`
	Edit bool `json:"edit"`
}
