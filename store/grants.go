package store

import (
	"context"
	"database/sql"
	"sort"

	"github.com/quiredocs/quire"
)

// Content names a space, a collection or a site for grants.
type Content struct {
	Kind      string // "space", "collection" or "site"
	ID        string
	OrgID     string
	Level     quire.DefaultLevel
	Ancestors []string
}

// RevokeGrant takes away a user's or team's grant on content, reporting
// whether there was one.
func (db *DB) RevokeGrant(ctx context.Context, c Content, principalKind, principalID string) (revoked bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		res, err := tx.q.exec(ctx, "DELETE FROM content_grants WHERE content_id = ? AND principal_kind = ? AND principal_id = ?", c.ID, principalKind, principalID)
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		revoked = n > 0
		return nil
	})
	return revoked, err
}

// GrantRoles gives role on content to users and teams of its organization;
// RoleGuest removes their grants instead. Unknown users or teams are
// CodeNotFound naming the entry, and nothing changes.
func (db *DB) GrantRoles(ctx context.Context, c Content, users, teams []string, role quire.Role) error {
	return db.Tx(ctx, func(tx *Tx) error {
		for i, id := range users {
			if _, err := tx.Membership(ctx, c.OrgID, id); err != nil {
				return quire.Errorf(quire.CodeNotFound, "users[%d]: no member %q in the organization", i, id)
			}
			if err := tx.setGrant(ctx, c, "user", id, role); err != nil {
				return err
			}
		}
		for i, id := range teams {
			var n int
			if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM teams WHERE org_id = ? AND id = ?", c.OrgID, id).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return quire.Errorf(quire.CodeNotFound, "teams[%d]: no team %q in the organization", i, id)
			}
			if err := tx.setGrant(ctx, c, "team", id, role); err != nil {
				return err
			}
		}
		return nil
	})
}

func (tx *Tx) setGrant(ctx context.Context, c Content, principalKind, principalID string, role quire.Role) error {
	if role == quire.RoleGuest {
		_, err := tx.q.exec(ctx, "DELETE FROM content_grants WHERE content_id = ? AND principal_kind = ? AND principal_id = ?", c.ID, principalKind, principalID)
		return err
	}
	_, err := tx.q.exec(ctx, `INSERT INTO content_grants (org_id, content_id, content_kind, principal_kind, principal_id, role, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (content_id, principal_kind, principal_id) DO UPDATE SET role = excluded.role`,
		c.OrgID, c.ID, c.Kind, principalKind, principalID, string(role), micros(tx.Now))
	return err
}

// RemoveGrant takes away a user's or team's grant on content; it is not an
// error if there was none.
func (db *DB) RemoveGrant(ctx context.Context, c Content, principalKind, principalID string) error {
	return db.Tx(ctx, func(tx *Tx) error { return tx.setGrant(ctx, c, principalKind, principalID, quire.RoleGuest) })
}

// UserGrant is a role granted to a user.
type UserGrant struct {
	User quire.User
	Role quire.Role
}

// TeamGrant is a role granted to a team.
type TeamGrant struct {
	Team quire.Team
	Role quire.Role
}

// ListUserGrants lists the users granted a role on content, in grant order.
func (r reader) ListUserGrants(ctx context.Context, contentID string, p Page) (*List[*UserGrant], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM content_grants g", "SELECT g.role, g.created_at, "+userColumns+" FROM content_grants g JOIN users u ON u.id = g.principal_id",
		" WHERE g.content_id = ? AND g.principal_kind = 'user'", []any{contentID}, keysetOrder{key: "g.created_at", id: "g.principal_id", numeric: true}, p,
		func(rows *sql.Rows) (*UserGrant, Cursor, error) {
			var g UserGrant
			var at, created int64
			if err := rows.Scan(append([]any{&g.Role, &at}, scanUser(&g.User, &created)...)...); err != nil {
				return nil, Cursor{}, err
			}
			g.User.CreatedAt = fromMicros(created)
			return &g, Cursor{Num: at, ID: g.User.ID}, nil
		})
}

// ListTeamGrants lists the teams granted a role on content, in grant order.
func (r reader) ListTeamGrants(ctx context.Context, contentID string, p Page) (*List[*TeamGrant], error) {
	list := &List[*TeamGrant]{}
	if err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM content_grants WHERE content_id = ? AND principal_kind = 'team'", contentID).Scan(&list.Count); err != nil {
		return nil, err
	}
	after, args, order := keyset("g.created_at", "g.principal_id", false, p.After, true)
	rows, err := r.q.query(ctx, "SELECT g.role, g.created_at, g.principal_id FROM content_grants g WHERE g.content_id = ? AND g.principal_kind = 'team'"+
		after+order+" LIMIT ?", append(append([]any{contentID}, args...), p.Limit+1)...)
	if err != nil {
		return nil, err
	}
	type grantRow struct {
		role   quire.Role
		teamID string
	}
	found, next, err := collectPage(rows, p.Limit, func(rows *sql.Rows) (grantRow, Cursor, error) {
		var g grantRow
		var at int64
		err := rows.Scan(&g.role, &at, &g.teamID)
		return g, Cursor{Num: at, ID: g.teamID}, err
	})
	if err != nil {
		return nil, err
	}
	list.Next, list.Items = next, make([]*TeamGrant, 0, len(found))
	for _, g := range found {
		t, err := r.teamByID(ctx, g.teamID)
		if err != nil {
			return nil, err
		}
		list.Items = append(list.Items, &TeamGrant{Team: *t, Role: g.role})
	}
	return list, nil
}

// Access is one person's effective role on content.
type Access struct {
	User     quire.User
	Role     quire.Role
	Disabled bool // the member is disabled in the organization
	// Granted: the role comes from a grant on the content itself (Direct: to
	// the user; else to one of their teams), not from the organization.
	Granted, Direct bool
}

// ListContentAccess lists everyone of the organization who can access content,
// with their effective role (role filter: at exactly that role), by user id.
func (r reader) ListContentAccess(ctx context.Context, c Content, only *quire.Role, p Page) (*List[*Access], error) {
	rows, err := r.q.query(ctx, "SELECT m.role, m.disabled, "+userColumns+" FROM members m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? ORDER BY u.id", c.OrgID)
	if err != nil {
		return nil, err
	}
	type member struct {
		user     quire.User
		role     quire.Role
		disabled bool
	}
	var members []member
	for rows.Next() {
		var m member
		var role sql.NullString
		var created int64
		if err := rows.Scan(append([]any{&role, &m.disabled}, scanUser(&m.user, &created)...)...); err != nil {
			rows.Close()
			return nil, err
		}
		m.role, m.user.CreatedAt = quire.Role(role.String), fromMicros(created)
		members = append(members, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	chain := append(append([]string{}, c.Ancestors...), c.ID)
	grants, err := r.chainGrants(ctx, chain)
	if err != nil {
		return nil, err
	}
	levels, err := r.levels(ctx, c.Ancestors)
	if err != nil {
		return nil, err
	}
	direct := map[string]quire.Role{}
	directRows, err := r.q.query(ctx, "SELECT principal_id, role FROM content_grants WHERE content_id = ? AND principal_kind = 'user'", c.ID)
	if err != nil {
		return nil, err
	}
	if err := eachRow(directRows, func(rows *sql.Rows) error {
		var id string
		var role quire.Role
		err := rows.Scan(&id, &role)
		direct[id] = role
		return err
	}); err != nil {
		return nil, err
	}
	var all []*Access
	for _, m := range members {
		v := &quire.Viewer{UserID: m.user.ID, OrgRole: m.role, Member: true, Grants: grants[m.user.ID], Levels: levels}
		role := v.RoleOn(c.ID, c.Level, c.Ancestors)
		if role.AtLeast(quire.RoleRead) && (only == nil || role == *only) {
			granted := grants[m.user.ID][c.ID]
			a := &Access{User: m.user, Role: role, Disabled: m.disabled, Granted: granted != "" && !m.role.AtLeast(granted) && granted == role}
			a.Direct = a.Granted && direct[m.user.ID] == granted
			all = append(all, a)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].User.ID < all[j].User.ID })
	list := &List[*Access]{Count: len(all), Items: []*Access{}}
	for _, a := range all {
		if p.After != nil && a.User.ID <= p.After.ID {
			continue
		}
		if len(list.Items) == p.Limit {
			list.Next = &Cursor{ID: list.Items[len(list.Items)-1].User.ID}
			break
		}
		list.Items = append(list.Items, a)
	}
	return list, nil
}

// chainGrants returns, per user, the strongest role granted to them or their
// teams on each of the content ids.
func (r reader) chainGrants(ctx context.Context, ids []string) (map[string]map[string]quire.Role, error) {
	args := make([]any, 0, 2*len(ids))
	for range 2 {
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := r.q.query(ctx, `SELECT g.principal_id, g.content_id, g.role FROM content_grants g
		WHERE g.principal_kind = 'user' AND g.content_id IN (`+placeholders(len(ids))+`)
		UNION ALL SELECT tm.user_id, g.content_id, g.role FROM content_grants g JOIN team_members tm ON tm.team_id = g.principal_id
		WHERE g.principal_kind = 'team' AND g.content_id IN (`+placeholders(len(ids))+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]map[string]quire.Role{}
	for rows.Next() {
		var user, content string
		var role quire.Role
		if err := rows.Scan(&user, &content, &role); err != nil {
			return nil, err
		}
		if out[user] == nil {
			out[user] = map[string]quire.Role{}
		}
		out[user][content] = out[user][content].Max(role)
	}
	return out, rows.Err()
}

// levels returns the default levels of collections.
func (r reader) levels(ctx context.Context, ids []string) (map[string]quire.DefaultLevel, error) {
	out := map[string]quire.DefaultLevel{}
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := r.q.query(ctx, "SELECT id, default_level FROM collections WHERE id IN ("+placeholders(len(ids))+")", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var level sql.NullString
		if err := rows.Scan(&id, &level); err != nil {
			return nil, err
		}
		out[id] = quire.DefaultLevel(level.String)
	}
	return out, rows.Err()
}
