package authoring

import (
	"context"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/store"
)

// QueueGit queues Git sync operation req on space sp through g, for userID
// whose role on the space is role, once the rules allow it: the Syncer's
// own checks of req (the URL against the server's rules) first; an import
// that updates the space merges, so it needs the review role (editors
// import standalone, into a request left open); what changes the space (an
// import merged, sync that will import) needs it editable; turning sync on
// or off, or moving a syncing connection elsewhere, changes what the space
// does on its own, so only its admins may. It answers the webhook secret
// when the operation made one, to be shown once.
func (a *Author) QueueGit(ctx context.Context, g *gitsync.Syncer, sp *quire.Space, role quire.Role, userID string, req gitsync.Request) (string, error) {
	if err := g.CheckRequest(&req); err != nil {
		return "", err
	}
	imports := req.Direction == store.GitDirImport && !req.Standalone
	if imports && !role.AtLeast(quire.RoleReview) {
		return "", quire.Errorf(quire.CodeForbidden, "importing into the space merges: it needs the review role; editors may import with standalone: true")
	}
	if imports || (req.Sync != nil && *req.Sync) {
		if err := quire.CheckEditable(sp); err != nil {
			return "", err
		}
	}
	if !role.AtLeast(quire.RoleAdmin) {
		conn, err := a.DB.GitSync(ctx, sp.ID)
		moves := err == nil && conn.Sync && (conn.URL != gitsync.RedactURL(req.URL) || conn.Ref != req.Ref || conn.Directory != req.Directory)
		if req.Sync != nil || moves {
			return "", quire.Errorf(quire.CodeForbidden, "only space admins may set up continuous Git sync")
		}
	}
	return g.Queue(ctx, sp, userID, req)
}
