package wire

import (
	"time"
)

// GitSyncState is the reference's GitSyncState, with Quire's fields: the
// branch, the folder, whether sync is on, the sync point, and the latest
// operation's commit and change request.
type GitSyncState struct {
	InstallationID       string        `json:"installationId"`
	InstallationProvider string        `json:"installationProvider"`
	InstallationStatus   string        `json:"installationStatus"`
	RepoName             string        `json:"repoName"`
	URL                  string        `json:"url"`
	Ref                  string        `json:"ref"`
	RepoProjectDirectory string        `json:"repoProjectDirectory"`
	Sync                 bool          `json:"sync"`
	SyncedCommit         string        `json:"syncedCommit,omitempty"`
	Operation            *GitOperation `json:"operation,omitempty"`
	OperationTimeout     int64         `json:"operationTimeout"`
	UpdatedAt            time.Time     `json:"updatedAt"`
}

// GitOperation is how the API shows a Git sync operation: its state,
// direction and outcome.
type GitOperation struct {
	State         string     `json:"state"`
	Direction     string     `json:"direction"`
	StartedAt     time.Time  `json:"startedAt"`
	EndedAt       *time.Time `json:"endedAt,omitempty"`
	Error         string     `json:"error,omitempty"`
	Commit        string     `json:"commit,omitempty"`
	ChangeRequest string     `json:"changeRequest,omitempty"`
}

// GitDeployKey is how the API shows a space's Git deploy key: its public
// half.
type GitDeployKey struct {
	Object      string    `json:"object"`
	PublicKey   string    `json:"publicKey"`
	Fingerprint string    `json:"fingerprint"`
	CreatedAt   time.Time `json:"createdAt"`
}
