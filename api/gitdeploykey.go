package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/wire"
)

// A space's deploy key for ssh remotes (Quire's; the reference has none):
// space admins read its public half, to add it to the repository, and may
// replace it. The private half never leaves the server.

func deployKeyJSON(k *gitsync.DeployKey) wire.GitDeployKey {
	return wire.GitDeployKey{Object: "git-deploy-key", PublicKey: k.PublicKey, Fingerprint: k.Fingerprint, CreatedAt: k.CreatedAt}
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
