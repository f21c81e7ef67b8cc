package quire

import (
	"encoding/json"
	"time"
)

// What installing an integration takes and records (issue 19).

// IntegrationContentInstallation is an installation set up on one space or
// one site of its organization (the reference's
// IntegrationSpaceInstallation and IntegrationSiteInstallation).
type IntegrationContentInstallation struct {
	InstallationID       string
	Integration          string
	OrgID                string
	TargetID             string // the space or site id
	Status               string
	Configuration        json.RawMessage
	ExternalIDs          []string
	CreatedAt, UpdatedAt time.Time
}

// IntegrationEvent is an event Quire recorded for an integration: an
// install, update or uninstall. Payload is the reference's Event.
type IntegrationEvent struct {
	ID             string
	Integration    string
	InstallationID string
	Payload        json.RawMessage
	CreatedAt      time.Time
}

// Limits of an installation's settings: the reference's maxItems of
// IntegrationInstallationExternalIds, and bounds of Quire's own.
const (
	MaxInstallationExternalIDs     = 5
	MaxInstallationExternalIDBytes = 200
	MaxInstallationConfigBytes     = 64 << 10
)

// IntegrationInstallationStatuses and IntegrationSelections are the
// reference's IntegrationInstallationStatus and
// IntegrationInstallationSpaceSelection.
var (
	IntegrationInstallationStatuses = []string{"active", "pending", "paused"}
	IntegrationSelections           = []string{"all", "selected"}
)

// CheckExternalIDs validates an installation's external ids.
func CheckExternalIDs(field string, ids []string) error {
	if len(ids) > MaxInstallationExternalIDs {
		return Errorf(CodeInvalid, "%s: at most %d ids", field, MaxInstallationExternalIDs)
	}
	for _, id := range ids {
		if id == "" || len(id) > MaxInstallationExternalIDBytes {
			return Errorf(CodeInvalid, "%s: each id must be 1 to %d bytes", field, MaxInstallationExternalIDBytes)
		}
	}
	return nil
}

// CheckConfiguration validates an installation's configuration: a JSON
// object of bounded size.
func CheckConfiguration(field string, raw json.RawMessage) error {
	if len(raw) > MaxInstallationConfigBytes {
		return Errorf(CodeInvalid, "%s: at most %d bytes", field, MaxInstallationConfigBytes)
	}
	var v map[string]any
	if err := json.Unmarshal(raw, &v); err != nil || v == nil {
		return Errorf(CodeInvalid, "%s: must be an object", field)
	}
	return nil
}
