package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/quiredocs/quire"
)

// memberSelect reads a member with true counts of its teams in the org;
// fillSpaceCounts adds the counts of spaces and sites.
const memberSelect = `SELECT m.org_id, ` + userColumns + `, m.role, m.disabled, m.joined_at, m.last_seen_at, m.sso,
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = m.user_id AND t.org_id = m.org_id),
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = m.user_id AND t.org_id = m.org_id AND tm.role = 'owner')
	FROM members m JOIN users u ON u.id = m.user_id`

type memberRow struct {
	m        quire.Member
	created  int64
	role     sql.NullString
	joined   int64
	lastSeen *int64
}

func (r *memberRow) dest() []any {
	m := &r.m
	return append(append([]any{&m.OrgID}, scanUser(&m.User, &r.created)...),
		&r.role, &m.Disabled, &r.joined, &r.lastSeen, &m.SSO, &m.Teams, &m.TeamsOwned)
}

func (r *memberRow) value() *quire.Member {
	m := r.m
	m.User.CreatedAt = fromMicros(r.created)
	m.Role = quire.Role(r.role.String)
	m.JoinedAt = fromMicros(r.joined)
	m.LastSeenAt = nullMicros(r.lastSeen)
	return &m
}

// Member returns a user's membership of an organization.
func (r reader) Member(ctx context.Context, orgID, userID string) (*quire.Member, error) {
	m, err := scanOne[memberRow, *quire.Member](ctx, r.q, "member", memberSelect+" WHERE m.org_id = ? AND m.user_id = ?", orgID, userID)
	if err != nil {
		return nil, err
	}
	return m, r.fillSpaceCounts(ctx, orgID, m)
}

// Membership returns a user's membership of an organization without the
// counts Member computes: what authorizing a request needs, and cheaper.
// Only OrgID, User.ID, Role, Disabled, JoinedAt and SSO are set.
func (r reader) Membership(ctx context.Context, orgID, userID string) (*quire.Member, error) {
	m := &quire.Member{OrgID: orgID, User: quire.User{ID: userID}}
	var role sql.NullString
	var joined int64
	err := r.q.queryRow(ctx, "SELECT role, disabled, joined_at, sso FROM members WHERE org_id = ? AND user_id = ?", orgID, userID).
		Scan(&role, &m.Disabled, &joined, &m.SSO)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "member not found")
	}
	if err != nil {
		return nil, err
	}
	m.Role, m.JoinedAt = quire.Role(role.String), fromMicros(joined)
	return m, nil
}

// MemberSomewhere reports whether a user is an enabled member, not a
// guest, of at least one organization.
func (r reader) MemberSomewhere(ctx context.Context, userID string) (bool, error) {
	var n int
	err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM members WHERE user_id = ? AND COALESCE(role, '') <> '' AND NOT disabled", userID).Scan(&n)
	return n > 0, err
}

// MemberSort names the order of a member list.
type MemberSort string

// Member sorts. Contract §4.13: joinedAt is the default; lastSeenAt lists only
// members seen at least once.
const (
	SortJoinedAt   MemberSort = "joinedAt"
	SortLastSeenAt MemberSort = "lastSeenAt"
	SortName       MemberSort = "name"
)

// MemberFilter narrows a member list.
type MemberFilter struct {
	Role      *quire.Role // RoleGuest lists guests
	Search    string      // case-insensitive, in display name or e-mail
	Sort      MemberSort
	Ascending bool
}

// ListMembers lists an organization's members.
func (r reader) ListMembers(ctx context.Context, orgID string, f MemberFilter, p Page) (*List[*quire.Member], error) {
	where, args := " WHERE m.org_id = ?", []any{orgID}
	if f.Role != nil {
		if *f.Role == quire.RoleGuest {
			where += " AND m.role IS NULL"
		} else {
			where += " AND m.role = ?"
			args = append(args, string(*f.Role))
		}
	}
	if f.Search != "" {
		// name_key and email are lower-cased in Go, not by SQL LOWER, which in
		// SQLite folds ASCII only: "émile" must find "Émile".
		where += ` AND (m.name_key LIKE ? ESCAPE '\' OR u.email LIKE ? ESCAPE '\')`
		pattern := "%" + likeEscaper.Replace(strings.ToLower(f.Search)) + "%"
		args = append(args, pattern, pattern)
	}
	keyCol, numeric := "m.joined_at", true
	switch f.Sort {
	case SortLastSeenAt:
		keyCol = "m.last_seen_at"
		where += " AND m.last_seen_at IS NOT NULL"
	case SortName:
		keyCol, numeric = "m.name_key", false
	}
	list, err := listKeyset(ctx, r.q, "SELECT COUNT(*) FROM members m JOIN users u ON u.id = m.user_id", memberSelect, where, args,
		keysetOrder{key: keyCol, id: "m.user_id", desc: !f.Ascending, numeric: numeric}, p, func(rows *sql.Rows) (*quire.Member, Cursor, error) {
			var row memberRow
			if err := rows.Scan(row.dest()...); err != nil {
				return nil, Cursor{}, err
			}
			m := row.value()
			c := Cursor{ID: m.User.ID}
			switch f.Sort {
			case SortLastSeenAt:
				c.Num = *row.lastSeen
			case SortName:
				c.Str = strings.ToLower(m.User.DisplayName)
			default:
				c.Num = row.joined
			}
			return m, c, nil
		})
	if err != nil {
		return nil, err
	}
	return list, r.fillSpaceCounts(ctx, orgID, list.Items...)
}

var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// AddMember adds a user to an organization; a user who is already a member
// keeps their membership as it is.
func (tx *Tx) AddMember(ctx context.Context, orgID, userID string, role quire.Role) error {
	u, err := tx.User(ctx, userID)
	if err != nil {
		return err
	}
	n, err := tx.q.affected(ctx, `INSERT INTO members (org_id, user_id, role, joined_at, name_key) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (org_id, user_id) DO NOTHING`,
		orgID, userID, nullRole(role), micros(tx.Now), strings.ToLower(u.DisplayName))
	if err != nil || n == 0 {
		return err
	}
	return tx.emit(ctx, memberEvent(quire.EventMemberJoined, orgID, userID, role, userID))
}

func nullRole(r quire.Role) sql.NullString {
	return sql.NullString{String: string(r), Valid: r != quire.RoleGuest}
}

var errLastAdmin = quire.Errorf(quire.CodeConflict, "an organization must keep at least one admin")

// keepAnAdmin refuses to take the admin role from userID (by demotion or
// removal) when they are the organization's last admin. It first writes the
// organization's row, which holds its lock to the end of the transaction:
// without it, on PostgreSQL, two admins demoting each other at once would both
// see the other still admin and leave none. SQLite has one writer anyway.
func (tx *Tx) keepAnAdmin(ctx context.Context, orgID, userID string) error {
	if _, err := tx.q.exec(ctx, "UPDATE organizations SET title = title WHERE id = ?", orgID); err != nil {
		return err
	}
	var role sql.NullString
	err := tx.q.queryRow(ctx, "SELECT role FROM members WHERE org_id = ? AND user_id = ?", orgID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return quire.Errorf(quire.CodeNotFound, "member not found")
	}
	if err != nil || role.String != string(quire.RoleAdmin) {
		return err
	}
	var others int
	if err := tx.q.queryRow(ctx, "SELECT COUNT(*) FROM members WHERE org_id = ? AND role = 'admin' AND user_id <> ?", orgID, userID).Scan(&others); err != nil {
		return err
	}
	if others == 0 {
		return errLastAdmin
	}
	return nil
}

// setMemberRole changes a member's role; the last admin cannot be demoted.
func (tx *Tx) setMemberRole(ctx context.Context, orgID, userID string, role quire.Role) error {
	if role != quire.RoleAdmin {
		if err := tx.keepAnAdmin(ctx, orgID, userID); err != nil {
			return err
		}
	}
	_, err := tx.q.exec(ctx, "UPDATE members SET role = ? WHERE org_id = ? AND user_id = ?", nullRole(role), orgID, userID)
	return err
}

// UpdateMemberRole changes a member's role (RoleGuest for guest). The last
// admin cannot be demoted.
func (db *DB) UpdateMemberRole(ctx context.Context, orgID, userID string, role quire.Role) (*quire.Member, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		return tx.setMemberRole(ctx, orgID, userID, role)
	}, func(tx *Tx) (*quire.Member, error) { return tx.Member(ctx, orgID, userID) })
}

// RemoveMember removes a user from an organization and from its teams, on
// behalf of actorID (an admin, or the member leaving). The last admin
// cannot be removed.
func (db *DB) RemoveMember(ctx context.Context, orgID, userID, actorID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if err := tx.keepAnAdmin(ctx, orgID, userID); err != nil {
			return err
		}
		return tx.removeMember(ctx, orgID, userID, actorID)
	})
}

// removeMember takes userID out of orgID, with its teams and grants there.
func (tx *Tx) removeMember(ctx context.Context, orgID, userID, actorID string) error {
	if err := tx.emit(ctx, memberEvent(quire.EventMemberLeft, orgID, userID, "", actorID)); err != nil {
		return err
	}
	if _, err := tx.q.exec(ctx, "DELETE FROM team_members WHERE user_id = ? AND team_id IN (SELECT id FROM teams WHERE org_id = ?)", userID, orgID); err != nil {
		return err
	}
	// Grants are for members: one added again starts without them.
	if _, err := tx.q.exec(ctx, "DELETE FROM content_grants WHERE org_id = ? AND principal_kind = 'user' AND principal_id = ?", orgID, userID); err != nil {
		return err
	}
	_, err := tx.q.exec(ctx, "DELETE FROM members WHERE org_id = ? AND user_id = ?", orgID, userID)
	return err
}

// TouchMember records that a member was seen now.
func (db *DB) TouchMember(ctx context.Context, orgID, userID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "UPDATE members SET last_seen_at = ? WHERE org_id = ? AND user_id = ?", micros(tx.Now), orgID, userID)
		return err
	})
}

// SetMemberSSO marks a member as one who signs in with SSO.
func (db *DB) SetMemberSSO(ctx context.Context, orgID, userID string) (*quire.Member, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if _, err := tx.Member(ctx, orgID, userID); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "UPDATE members SET sso = TRUE WHERE org_id = ? AND user_id = ?", orgID, userID); err != nil {
			return err
		}
		return nil
	}, func(tx *Tx) (*quire.Member, error) { return tx.Member(ctx, orgID, userID) })
}

// fillSpaceCounts sets each member's counts of the spaces and sites they
// can access: all live spaces and all sites of the organization for members
// who are not guests; for guests, the spaces granted to them or their teams
// and no site, as sites are managed by the organization's members.
func (r reader) fillSpaceCounts(ctx context.Context, orgID string, members ...*quire.Member) error {
	spaces, sites := -1, -1
	for _, m := range members {
		var err error
		if m.Role == quire.RoleGuest {
			if m.Spaces, err = r.CountVisibleSpaces(ctx, orgID, &quire.Viewer{UserID: m.User.ID, Member: true}); err != nil {
				return err
			}
			continue
		}
		if spaces < 0 {
			if spaces, err = r.CountVisibleSpaces(ctx, orgID, nil); err != nil {
				return err
			}
			if err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM sites WHERE org_id = ?", orgID).Scan(&sites); err != nil {
				return err
			}
		}
		m.Spaces, m.Sites = spaces, sites
	}
	return nil
}

// MemberSpace is a space a member can access and their role on it.
type MemberSpace struct {
	Space *quire.Space
	Role  quire.Role
}

// ListMemberSpaces lists the spaces a member can access, in tree order, with
// their role on each.
func (r reader) ListMemberSpaces(ctx context.Context, orgID, userID string, p Page) (*List[*MemberSpace], error) {
	v, err := r.Viewer(ctx, orgID, userID, nil)
	if err != nil {
		return nil, err
	}
	spaces, err := r.ListSpaces(ctx, orgID, SpaceFilter{VisibleTo: v}, p)
	if err != nil {
		return nil, err
	}
	list := &List[*MemberSpace]{Count: spaces.Count, Next: spaces.Next, Items: make([]*MemberSpace, len(spaces.Items))}
	for i, sp := range spaces.Items {
		list.Items[i] = &MemberSpace{Space: sp, Role: v.RoleOn(sp.ID, sp.DefaultLevel, sp.Ancestors)}
	}
	return list, nil
}
