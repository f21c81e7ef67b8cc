package api

import (
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/gitsync"
)

// A space's deploy key for ssh remotes (Quire's; the reference has none):
// space admins read its public half, to add it to the repository, and may
// replace it. The private half never leaves the server.

type gitDeployKeyJSON struct {
	Object      string    `json:"object"`
	PublicKey   string    `json:"publicKey"`
	Fingerprint string    `json:"fingerprint"`
	CreatedAt   time.Time `json:"createdAt"`
}

func deployKeyJSON(k *gitsync.DeployKey) gitDeployKeyJSON {
	return gitDeployKeyJSON{Object: "git-deploy-key", PublicKey: k.PublicKey, Fingerprint: k.Fingerprint, CreatedAt: k.CreatedAt}
}

// getGitDeployKey answers GET S/git/deploy-key: space admins; the key is
// made on first request.
func (s *Server) getGitDeployKey(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	k, err := s.git.DeployKey(r.Context(), sp.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, deployKeyJSON(k))
}

// rotateGitDeployKey answers POST S/git/deploy-key: space admins replace
// the space's deploy key with a new one.
func (s *Server) rotateGitDeployKey(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleAdmin)
	if err != nil {
		return err
	}
	k, err := s.git.RotateDeployKey(r.Context(), sp.ID)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, deployKeyJSON(k))
}
