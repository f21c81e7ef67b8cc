package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
)

// changeRequestColumns read a change request with the count of its open
// comments (kept in comment_counts, see comments.go).
const changeRequestColumns = `c.id, c.space_id, c.number, c.status, c.subject, c.description, c.created_at, c.updated_at,
	c.revision_id, c.revision_initial, c.revision_merged_ancestor, c.revision_merged,
	COALESCE((SELECT n.open_comments FROM comment_counts n WHERE n.space_id = c.space_id AND n.change_request_id = c.id), 0), ` + userColumns

func scanChangeRequest(row interface{ Scan(...any) error }) (*quire.ChangeRequest, error) {
	var c quire.ChangeRequest
	var created, updated, userCreated int64
	var ancestor, merged sql.NullString
	dest := []any{&c.ID, &c.SpaceID, &c.Number, &c.Status, &c.Subject, &c.Description, &created, &updated,
		&c.RevisionID, &c.RevisionInitial, &ancestor, &merged, &c.Comments}
	if err := row.Scan(append(dest, scanUser(&c.CreatedBy, &userCreated)...)...); err != nil {
		return nil, err
	}
	c.CreatedAt, c.UpdatedAt, c.CreatedBy.CreatedAt = fromMicros(created), fromMicros(updated), fromMicros(userCreated)
	c.RevisionMergedAncestor, c.RevisionMerged = ancestor.String, merged.String
	return &c, nil
}

const changeRequestFrom = " FROM change_requests c JOIN users u ON u.id = c.created_by"

// ChangeRequest returns a change request of a space by id or by number.
// Contract §1.8: {changeRequestId} accepts either.
func (r reader) ChangeRequest(ctx context.Context, spaceID, idOrNumber string) (*quire.ChangeRequest, error) {
	where, arg := changeRequestWhere(idOrNumber)
	c, err := scanChangeRequest(r.q.queryRow(ctx, "SELECT "+changeRequestColumns+changeRequestFrom+where, spaceID, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "change request not found")
	}
	return c, err
}

// changeRequestWhere is the condition on change_requests c, with the space's
// id and the returned argument, for a request named by id or by number.
func changeRequestWhere(idOrNumber string) (string, any) {
	if n, err := strconv.ParseInt(idOrNumber, 10, 64); err == nil {
		return " WHERE c.space_id = ? AND c.number = ?", n
	}
	return " WHERE c.space_id = ? AND c.id = ?", idOrNumber
}

// ChangeRequestFilter narrows a change request list.
type ChangeRequestFilter struct {
	Status      quire.ChangeRequestStatus
	Contributor string // user id; "" for all
}

// ListChangeRequests lists a space's change requests, newest first.
func (r reader) ListChangeRequests(ctx context.Context, spaceID string, f ChangeRequestFilter, p Page) (*List[*quire.ChangeRequest], error) {
	where, args := " WHERE c.space_id = ? AND c.status = ?", []any{spaceID, string(f.Status)}
	if f.Contributor != "" {
		where += " AND EXISTS (SELECT 1 FROM change_request_contributors k WHERE k.change_request_id = c.id AND k.user_id = ?)"
		args = append(args, f.Contributor)
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM change_requests c", "SELECT "+changeRequestColumns+changeRequestFrom, where, args,
		keysetOrder{key: "c.number", id: "c.id", desc: true, numeric: true}, p,
		scanWithCursor(scanChangeRequest, func(c *quire.ChangeRequest) Cursor { return Cursor{Num: int64(c.Number), ID: c.ID} }))
}

// CreateChangeRequest forks a change request, as a draft, from the space's
// current revision; its number is the space's next.
func (db *DB) CreateChangeRequest(ctx context.Context, spaceID, subject, userID string) (c *quire.ChangeRequest, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		c, err = tx.CreateChangeRequest(ctx, spaceID, subject, userID)
		return err
	})
	return c, err
}

// CreateChangeRequest is DB.CreateChangeRequest within tx.
func (tx *Tx) CreateChangeRequest(ctx context.Context, spaceID, subject, userID string) (*quire.ChangeRequest, error) {
	var revision string
	if err := tx.q.queryRow(ctx, "SELECT revision_id FROM spaces WHERE id = ?", spaceID).Scan(&revision); err != nil {
		return nil, err
	}
	// The space's numbering row is locked until the commit, so that two
	// requests made at once get two numbers; merges do not take it.
	var number int64
	if err := tx.q.queryRow(ctx, `INSERT INTO change_request_numbers (space_id, last)
		VALUES (?, (SELECT COALESCE(MAX(number), 0) + 1 FROM change_requests WHERE space_id = ?))
		ON CONFLICT (space_id) DO UPDATE SET last = change_request_numbers.last + 1 RETURNING last`, spaceID, spaceID).Scan(&number); err != nil {
		return nil, err
	}
	id := newID()
	if _, err := tx.q.exec(ctx, `INSERT INTO change_requests (id, space_id, number, status, subject, created_by, created_at, updated_at,
		revision_id, revision_initial) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, spaceID, number, string(quire.StatusDraft), subject, userID, micros(tx.Now), micros(tx.Now), revision, revision); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "INSERT INTO change_request_contributors (change_request_id, user_id, updated_at) VALUES (?, ?, ?)", id, userID, micros(tx.Now)); err != nil {
		return nil, err
	}
	c, err := tx.ChangeRequest(ctx, spaceID, id)
	if err != nil {
		return nil, err
	}
	return c, tx.emit(ctx, changeRequestEvent(quire.EventChangeRequestOpened, c, userID))
}

// ChangeRequestUpdate is a partial update; nil fields stay as they are.
type ChangeRequestUpdate struct {
	Subject     *string
	Description *string                    // markdown, checked as a page's body is (edit.Markdown); "" clears it
	Status      *quire.ChangeRequestStatus // draft, open or archived
	Actor       string                     // user id of who changes it, for webhooks
}

// UpdateChangeRequest applies u. A merged request keeps its status: changing
// it is CodeInvalid.
func (db *DB) UpdateChangeRequest(ctx context.Context, spaceID, id string, u ChangeRequestUpdate) (c *quire.ChangeRequest, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if c, err = tx.ChangeRequest(ctx, spaceID, id); err != nil {
			return err
		}
		if u.Status != nil && c.Status == quire.StatusMerged && *u.Status != quire.StatusMerged {
			return quire.Errorf(quire.CodeInvalid, "status: a merged change request cannot be reopened or archived")
		}
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.Subject != nil {
			set["subject"] = *u.Subject
		}
		if u.Description != nil {
			set["description"] = description(*u.Description)
		}
		if u.Status != nil {
			set["status"] = string(*u.Status)
		}
		if err := tx.update(ctx, "change_requests", "id", c.ID, set); err != nil {
			return err
		}
		was := c.Status
		if c, err = tx.ChangeRequest(ctx, spaceID, c.ID); err != nil {
			return err
		}
		event := quire.EventChangeRequestUpdated
		if c.Status == quire.StatusArchived && was != quire.StatusArchived {
			event = quire.EventChangeRequestClosed
		}
		return tx.emit(ctx, changeRequestEvent(event, c, u.Actor))
	})
	return c, err
}

// description is a change request's description as kept: one of blanks
// only is none, so that it is left out of answers and unmet by
// require_change_request_description alike.
func description(markdown string) string {
	if strings.TrimSpace(markdown) == "" {
		return ""
	}
	return markdown
}

// OrgChangeRequestFilter narrows the change requests of an organization.
type OrgChangeRequestFilter struct {
	VisibleTo   *quire.Viewer // only those of spaces this viewer can see
	Statuses    []quire.ChangeRequestStatus
	Creator     string // user id; "" for all
	Contributor string // user id; "" for all
	Reviewer    string // user id asked to review; "" for all
	Space       string // space id; "" for all
	Site        string // site id: those of the site's spaces; "" for all
	ByCreated   bool   // newest created first; else last updated first
}

// ListOrgChangeRequests lists the change requests of an organization's live
// spaces, newest first by update (or creation).
func (r reader) ListOrgChangeRequests(ctx context.Context, orgID string, f OrgChangeRequestFilter, p Page) (*List[*quire.ChangeRequest], error) {
	where := " WHERE s.org_id = ? AND s.deleted_at IS NULL AND c.status IN (" + placeholders(len(f.Statuses)) + ")"
	args := []any{orgID}
	for _, st := range f.Statuses {
		args = append(args, string(st))
	}
	for _, cond := range []struct {
		value, clause string
	}{
		{f.Creator, " AND c.created_by = ?"},
		{f.Space, " AND c.space_id = ?"},
		{f.Contributor, " AND EXISTS (SELECT 1 FROM change_request_contributors k WHERE k.change_request_id = c.id AND k.user_id = ?)"},
		{f.Reviewer, " AND EXISTS (SELECT 1 FROM change_request_reviewers w WHERE w.change_request_id = c.id AND w.user_id = ?)"},
		{f.Site, " AND EXISTS (SELECT 1 FROM site_spaces ss JOIN sites st ON st.id = ss.site_id WHERE ss.space_id = c.space_id AND st.id = ? AND st.org_id = s.org_id)"},
	} {
		if cond.value != "" {
			where += cond.clause
			args = append(args, cond.value)
		}
	}
	vis, visArgs := visibleClause("s", f.VisibleTo)
	where, args = where+vis, append(args, visArgs...)
	key := "c.updated_at"
	if f.ByCreated {
		key = "c.created_at"
	}
	from := " FROM change_requests c JOIN spaces s ON s.id = c.space_id"
	return listKeyset(ctx, r.q, "SELECT COUNT(*)"+from, "SELECT "+changeRequestColumns+from+" JOIN users u ON u.id = c.created_by", where, args,
		keysetOrder{key: key, id: "c.id", desc: true, numeric: true}, p,
		scanWithCursor(scanChangeRequest, func(c *quire.ChangeRequest) Cursor {
			if f.ByCreated {
				return Cursor{Num: micros(c.CreatedAt), ID: c.ID}
			}
			return Cursor{Num: micros(c.UpdatedAt), ID: c.ID}
		}))
}
