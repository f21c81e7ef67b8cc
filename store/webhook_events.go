package store

import (
	"context"

	"github.com/quiredocs/quire"
)

// The events of each area, as the writes that cause them emit them.

func changeRequestEvent(name quire.WebhookEvent, c *quire.ChangeRequest, actorID string) Event {
	return Event{Name: name, SpaceID: c.SpaceID, RevisionID: c.RevisionID, ActorID: actorID,
		Resource: EventResource{Object: "change-request", ID: c.ID, Number: c.Number, Status: string(c.Status), Subject: c.Subject}}
}

// commentEvent is an event of comment id of scope s, a reply when parentID
// is set. A comment's thread orders its events: a reply is not sent before
// the comment it answers.
func commentEvent(name quire.WebhookEvent, s CommentScope, id, parentID, actorID string) Event {
	thread := id
	if parentID != "" {
		thread = parentID
	}
	return Event{Name: name, SpaceID: s.SpaceID, ActorID: actorID, Key: "comment:" + thread,
		Resource: EventResource{Object: "comment", ID: id, ChangeRequest: s.ChangeRequestID, Comment: parentID}}
}

func memberEvent(name quire.WebhookEvent, orgID, userID string, role quire.Role, actorID string) Event {
	return Event{Name: name, OrgID: orgID, ActorID: actorID, Resource: EventResource{Object: "member", ID: userID, Role: string(role)}}
}

// emitPublished emits site.published or site.unpublished when a site's
// published flag is about to change to published.
func (tx *Tx) emitPublished(ctx context.Context, siteID string, published bool, actorID string) error {
	var orgID string
	var was bool
	if err := tx.q.queryRow(ctx, "SELECT org_id, published FROM sites WHERE id = ?", siteID).Scan(&orgID, &was); err != nil || was == published {
		return err
	}
	name := quire.EventSiteUnpublished
	if published {
		name = quire.EventSitePublished
	}
	return tx.emit(ctx, Event{Name: name, OrgID: orgID, ActorID: actorID, Resource: EventResource{Object: "site", ID: siteID}})
}
