package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/quiredocs/quire"
)

// spaceColumns read a space with the counts of its change requests, by
// status (kept by triggers in change_request_counts), and of the open
// comments on the space itself (kept in comment_counts, see comments.go).
const spaceColumns = `s.id, s.org_id, s.parent_id, s.path, s.title, s.emoji, s.visibility, s.edit_mode, s.default_level,
	s.share_key, s.revision_id, s.position, s.created_at, s.updated_at, s.deleted_at, s.merge_rules,
	CAST(COALESCE((SELECT SUM(c.n) FROM change_request_counts c WHERE c.space_id = s.id), 0) AS BIGINT),
	COALESCE((SELECT c.n FROM change_request_counts c WHERE c.space_id = s.id AND c.status = 'open'), 0),
	COALESCE((SELECT c.n FROM change_request_counts c WHERE c.space_id = s.id AND c.status = 'draft'), 0),
	COALESCE((SELECT n.open_comments FROM comment_counts n WHERE n.space_id = s.id AND n.change_request_id = ''), 0)`

type spaceRow struct {
	s                quire.Space
	parent, level    sql.NullString
	path             string
	position         int64
	created, updated int64
	deleted          *int64
	mergeRules       string
}

func (r *spaceRow) dest() []any {
	s := &r.s
	return []any{&s.ID, &s.OrgID, &r.parent, &r.path, &s.Title, &s.Emoji, &s.Visibility, &s.EditMode, &r.level,
		&s.ShareKey, &s.RevisionID, &r.position, &r.created, &r.updated, &r.deleted, &r.mergeRules,
		&s.ChangeRequests, &s.ChangeRequestsOpen, &s.ChangeRequestsDraft, &s.Comments}
}

func (r *spaceRow) value() *quire.Space {
	s := r.s
	s.ParentID, s.Ancestors = r.parent.String, ancestorsOf(r.path)
	s.DefaultLevel = quire.DefaultLevel(r.level.String)
	s.CreatedAt, s.UpdatedAt, s.DeletedAt = fromMicros(r.created), fromMicros(r.updated), nullMicros(r.deleted)
	s.MergeRules = json.RawMessage(r.mergeRules)
	return &s
}

// cursor is the space's key in lists ordered by (path, position, id):
// siblings in their explicit order, the top level first.
func (r *spaceRow) cursor() Cursor { return Cursor{Str: r.path, Num: r.position, ID: r.s.ID} }

// Space returns a space by id, deleted or not.
func (r reader) Space(ctx context.Context, id string) (*quire.Space, error) {
	return scanOne[spaceRow, *quire.Space](ctx, r.q, "space", "SELECT "+spaceColumns+" FROM spaces s WHERE s.id = ?", id)
}

// SpaceFilter narrows a space list.
type SpaceFilter struct {
	ParentID string // only the spaces directly in this collection; "" for all of the org
	// VisibleTo lists only the spaces this viewer can see: all of them for a
	// member who is not a guest, else those granted to them or their teams
	// (on the space or an ancestor collection).
	VisibleTo *quire.Viewer
}

// visibleClause restricts rows of alias (with id and path columns) to what
// a viewer can see.
func visibleClause(alias string, v *quire.Viewer) (string, []any) {
	if v == nil {
		return "", nil
	}
	if !v.Member {
		return " AND 1 = 0", nil
	}
	if v.OrgRole != quire.RoleGuest {
		return "", nil
	}
	// One EXISTS per kind of principal, so that each reads only the grants
	// to the guest or their teams by the principal index; with the two kinds
	// in one, SQLite read every grant of the organization for every row.
	granted := ` AND (g.content_id = ` + alias + `.id OR ` + alias + `.path LIKE '%' || g.content_id || '/%')`
	return ` AND (EXISTS (SELECT 1 FROM content_grants g WHERE g.org_id = ` + alias + `.org_id
		AND g.principal_kind = 'user' AND g.principal_id = ?` + granted + `)
	  OR EXISTS (SELECT 1 FROM content_grants g WHERE g.org_id = ` + alias + `.org_id
		AND g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE user_id = ?)` + granted + `))`, []any{v.UserID, v.UserID}
}

// ListSpaces lists the live spaces of an organization in tree order: each
// parent's children in their explicit order.
func (r reader) ListSpaces(ctx context.Context, orgID string, f SpaceFilter, p Page) (*List[*quire.Space], error) {
	where, args := " WHERE s.org_id = ? AND s.deleted_at IS NULL", []any{orgID}
	if f.ParentID != "" {
		where += " AND s.parent_id = ?"
		args = append(args, f.ParentID)
	}
	vis, visArgs := visibleClause("s", f.VisibleTo)
	return listInTree[spaceRow, *quire.Space](ctx, r.q, "spaces", "s", spaceColumns, where+vis, append(args, visArgs...), p)
}

// treeRow is a row type of spaces or collections: scannedRow, and where the
// row stands in tree order.
type treeRow[R, T any] interface {
	scannedRow[R, T]
	cursor() Cursor
}

// listInTree lists the rows of table (as alias) that where selects, with
// args, in tree order (path, position, id): how many there are, and page p.
func listInTree[R, T any, P treeRow[R, T]](ctx context.Context, q querier, table, alias, columns, where string, args []any, p Page) (*List[T], error) {
	from := " FROM " + table + " " + alias
	list := &List[T]{}
	if err := q.queryRow(ctx, "SELECT COUNT(*)"+from+where, args...).Scan(&list.Count); err != nil {
		return nil, err
	}
	order := alias + ".path, " + alias + ".position, " + alias + ".id"
	after := ""
	if p.After != nil {
		after = " AND (" + order + ") > (?, ?, ?)"
		args = append(args, p.After.Str, p.After.Num, p.After.ID)
	}
	rows, err := q.query(ctx, "SELECT "+columns+from+where+after+" ORDER BY "+order+" LIMIT ?", append(args, p.Limit+1)...)
	if err != nil {
		return nil, err
	}
	list.Items, list.Next, err = collectPage(rows, p.Limit, func(rows *sql.Rows) (T, Cursor, error) {
		var row R
		if err := rows.Scan(P(&row).dest()...); err != nil {
			var none T
			return none, Cursor{}, err
		}
		return P(&row).value(), P(&row).cursor(), nil
	})
	return list, err
}

// CountVisibleSpaces counts the live spaces of an organization a viewer can see.
func (r reader) CountVisibleSpaces(ctx context.Context, orgID string, v *quire.Viewer) (int, error) {
	vis, args := visibleClause("s", v)
	var n int
	err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM spaces s WHERE s.org_id = ? AND s.deleted_at IS NULL"+vis, append([]any{orgID}, args...)...).Scan(&n)
	return n, err
}

// NewSpace is what creating a space takes; zero fields take defaults.
type NewSpace struct {
	Title    string
	Emoji    string
	ParentID string
	EditMode quire.EditMode
}

func newShareKey() string { return strings.ToLower(rand.Text()) }

// CreateSpace creates a private space with an initial empty revision, at the
// end of its parent's children.
func (db *DB) CreateSpace(ctx context.Context, orgID string, n NewSpace) (sp *quire.Space, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		sp, err = tx.createSpace(ctx, orgID, n)
		return err
	})
	return sp, err
}

func (tx *Tx) createSpace(ctx context.Context, orgID string, n NewSpace) (*quire.Space, error) {
	path, err := tx.childPath(ctx, orgID, n.ParentID)
	if err != nil {
		return nil, err
	}
	if n.EditMode == "" {
		n.EditMode = quire.EditLive
	}
	id, rev := newID(), newID()
	pos, err := tx.endPosition(ctx, orgID, n.ParentID)
	if err != nil {
		return nil, err
	}
	_, err = tx.q.exec(ctx, `INSERT INTO spaces (id, org_id, parent_id, path, title, emoji, visibility, edit_mode, default_level,
		share_key, revision_id, position, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		id, orgID, nullString(n.ParentID), path, n.Title, n.Emoji, string(quire.VisibilityPrivate), string(n.EditMode),
		string(quire.LevelInherit), newShareKey(), rev, pos, micros(tx.Now), micros(tx.Now))
	if err != nil {
		return nil, err
	}
	if err := tx.createRevision(ctx, rev, id, nil, RevisionEdits); err != nil {
		return nil, err
	}
	return tx.Space(ctx, id)
}

// createRevision stores a revision of a space.
func (tx *Tx) createRevision(ctx context.Context, id, spaceID string, parents []string, kind string) error {
	_, err := tx.q.exec(ctx, "INSERT INTO revisions (id, space_id, parents, type, created_at) VALUES (?, ?, ?, ?, ?)",
		id, spaceID, jsonText(parents), kind, micros(tx.Now))
	return err
}

// SpaceUpdate is a partial update; nil fields stay as they are.
type SpaceUpdate struct {
	Title        *string
	Emoji        *string
	DefaultLevel *quire.DefaultLevel
	EditMode     *quire.EditMode
	Visibility   *quire.Visibility
	MergeRules   json.RawMessage // as quire.CheckSpaceMergeRules keeps them; nil: unchanged
}

// UpdateSpace applies u to a live space.
func (db *DB) UpdateSpace(ctx context.Context, id string, u SpaceUpdate) (*quire.Space, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		set := map[string]any{"updated_at": micros(tx.Now)}
		if u.Title != nil {
			set["title"] = *u.Title
		}
		if u.Emoji != nil {
			set["emoji"] = *u.Emoji
		}
		if u.DefaultLevel != nil {
			set["default_level"] = nullLevel(*u.DefaultLevel)
		}
		if u.EditMode != nil {
			set["edit_mode"] = string(*u.EditMode)
		}
		if u.Visibility != nil {
			set["visibility"] = string(*u.Visibility)
		}
		if u.MergeRules != nil {
			set["merge_rules"] = string(u.MergeRules)
		}
		if err := tx.update(ctx, "spaces", "id", id, set); err != nil {
			return err
		}
		if u.Title != nil || u.Emoji != nil || u.Visibility != nil { // what published sites show of it
			return tx.revalidateSpace(ctx, id)
		}
		return nil
	}, func(tx *Tx) (*quire.Space, error) { return tx.Space(ctx, id) })
}

// DeleteSpace marks a space deleted; it can be restored for RestoreWindow.
func (db *DB) DeleteSpace(ctx context.Context, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "UPDATE spaces SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL", micros(tx.Now), id); err != nil {
			return err
		}
		return tx.unpublishSpaces(ctx, "s.id = ?", id) // see sitespaces.go
	})
}

// RestoreWindow is how long a deleted space can be restored. Contract §8.
const RestoreWindow = 7 * 24 * time.Hour

// RestoreSpace brings back a space deleted within RestoreWindow; later it is
// not found. A space whose collection is deleted too comes back at the top
// level of its organization (private if it was in-collection).
func (db *DB) RestoreSpace(ctx context.Context, id string) (sp *quire.Space, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if sp, err = tx.Space(ctx, id); err != nil {
			return err
		}
		if sp.DeletedAt.IsZero() {
			return nil
		}
		if tx.Now.Sub(sp.DeletedAt) > RestoreWindow {
			return quire.Errorf(quire.CodeNotFound, "space not found")
		}
		if _, err := tx.q.exec(ctx, "UPDATE spaces SET deleted_at = NULL, updated_at = ? WHERE id = ?", micros(tx.Now), id); err != nil {
			return err
		}
		if sp.ParentID != "" {
			_, err := tx.liveCollection(ctx, sp.OrgID, sp.ParentID)
			if quire.ErrorCode(err) == quire.CodeNotFound {
				err = tx.move(ctx, quire.Sibling{Kind: "space", ID: id}, sp.OrgID, "", quire.Position{})
				if err == nil {
					// in-collection is only for spaces in a collection.
					_, err = tx.q.exec(ctx, "UPDATE spaces SET visibility = ? WHERE id = ? AND visibility = ?",
						string(quire.VisibilityPrivate), id, string(quire.VisibilityInCollection))
				}
			}
			if err != nil {
				return err
			}
		}
		sp, err = tx.Space(ctx, id)
		return err
	})
	return sp, err
}

// DuplicateSpace copies a space's settings, grants and current content into
// a new space titled "<title> (copy)", placed right after the original.
func (db *DB) DuplicateSpace(ctx context.Context, id string) (sp *quire.Space, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		sp, err = tx.duplicateSpace(ctx, id)
		return err
	})
	return sp, err
}

// duplicateSpace is DuplicateSpace within tx.
func (tx *Tx) duplicateSpace(ctx context.Context, id string) (*quire.Space, error) {
	orig, err := tx.Space(ctx, id)
	if err != nil {
		return nil, err
	}
	copyTitle := truncateRunes(orig.Title, 50-len([]rune(" (copy)"))) + " (copy)"
	sp, err := tx.createSpace(ctx, orig.OrgID, NewSpace{Title: copyTitle, Emoji: orig.Emoji, ParentID: orig.ParentID, EditMode: orig.EditMode})
	if err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, "UPDATE spaces SET visibility = ?, default_level = ?, merge_rules = ? WHERE id = ?",
		string(orig.Visibility), nullLevel(orig.DefaultLevel), string(orig.MergeRules), sp.ID); err != nil {
		return nil, err
	}
	// The copy's first revision holds the original's current content
	// (the same tree objects) and descends from it.
	if _, err := tx.q.exec(ctx, "UPDATE revisions SET parents = ?, root = (SELECT root FROM revisions WHERE id = ?) WHERE id = ?",
		jsonText([]string{orig.RevisionID}), orig.RevisionID, sp.RevisionID); err != nil {
		return nil, err
	}
	if _, err := tx.q.exec(ctx, `INSERT INTO content_grants (org_id, content_id, content_kind, principal_kind, principal_id, role, created_at)
			SELECT org_id, ?, content_kind, principal_kind, principal_id, role, ? FROM content_grants WHERE content_id = ?`,
		sp.ID, micros(tx.Now), orig.ID); err != nil {
		return nil, err
	}
	if err := tx.move(ctx, quire.Sibling{Kind: "space", ID: sp.ID}, orig.OrgID, orig.ParentID,
		quire.Position{After: &quire.Sibling{Kind: "space", ID: orig.ID}}); err != nil {
		return nil, err
	}
	return tx.Space(ctx, sp.ID)
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// PurgeDeleted removes for good the spaces and collections deleted before
// cutoff, with everything that belongs to them. It returns how many spaces
// it removed.
func (db *DB) PurgeDeleted(ctx context.Context, cutoff time.Time) (spaces int, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		res, err := tx.q.exec(ctx, "DELETE FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at < ?", micros(cutoff))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		spaces = int(n)
		// Children of a purged collection were deleted with it, at the same time or before.
		if _, err := tx.q.exec(ctx, "DELETE FROM collections WHERE deleted_at IS NOT NULL AND deleted_at < ?", micros(cutoff)); err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, `DELETE FROM content_grants WHERE
			(content_kind = 'space' AND content_id NOT IN (SELECT id FROM spaces)) OR
			(content_kind = 'collection' AND content_id NOT IN (SELECT id FROM collections))`)
		return err
	})
	return spaces, err
}
