package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/quiredocs/quire"
)

// teamSelect reads a team with true counts of its members and of the live
// spaces granted to it, directly or through a collection.
const (
	teamColumns = `t.id, t.org_id, t.title, t.created_at,
	(SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id),
	(SELECT COUNT(*) FROM spaces s WHERE s.org_id = t.org_id AND s.deleted_at IS NULL AND EXISTS (
		SELECT 1 FROM content_grants g WHERE g.principal_kind = 'team' AND g.principal_id = t.id
		AND (g.content_id = s.id OR s.path LIKE '%' || g.content_id || '/%')))`
	teamSelect = "SELECT " + teamColumns + " FROM teams t"
)

func scanTeam(rows interface{ Scan(...any) error }) (*quire.Team, error) {
	var t quire.Team
	var created int64
	if err := rows.Scan(&t.ID, &t.OrgID, &t.Title, &created, &t.Members, &t.Spaces); err != nil {
		return nil, err
	}
	t.CreatedAt = fromMicros(created)
	return &t, nil
}

// Team returns a team of an organization.
func (r reader) Team(ctx context.Context, orgID, teamID string) (*quire.Team, error) {
	t, err := scanTeam(r.q.queryRow(ctx, teamSelect+" WHERE t.org_id = ? AND t.id = ?", orgID, teamID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "team not found")
	}
	return t, err
}

// TeamFilter narrows a team list.
type TeamFilter struct {
	Title string // case-insensitive contains
	// ManagedBy lists only the teams this member can manage: all of them for
	// an org admin, else those they own.
	ManagedBy *quire.Member
}

// ListTeams lists an organization's teams, oldest first.
func (r reader) ListTeams(ctx context.Context, orgID string, f TeamFilter, p Page) (*List[*quire.Team], error) {
	where, args := " WHERE t.org_id = ?", []any{orgID}
	if f.Title != "" {
		where += ` AND t.title_key LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(strings.ToLower(f.Title))+"%")
	}
	if m := f.ManagedBy; m != nil && m.Role != quire.RoleAdmin {
		where += " AND EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = ? AND o.role = 'owner')"
		args = append(args, m.User.ID)
	}
	return r.listTeamsWhere(ctx, where, args, p, "")
}

// ListMemberTeams lists the teams of an organization a user belongs to, with
// their role in each.
func (r reader) ListMemberTeams(ctx context.Context, orgID, userID, title string, p Page) (*List[*quire.TeamMembership], error) {
	where := " WHERE t.org_id = ? AND mt.user_id = ?"
	args := []any{orgID, userID}
	if title != "" {
		where += ` AND t.title_key LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(strings.ToLower(title))+"%")
	}
	teams, err := r.listTeamsWhere(ctx, where, args, p, "mt")
	if err != nil {
		return nil, err
	}
	list := &List[*quire.TeamMembership]{Count: teams.Count, Next: teams.Next, Items: []*quire.TeamMembership{}}
	for _, t := range teams.Items {
		var role string
		if err := r.q.queryRow(ctx, "SELECT role FROM team_members WHERE team_id = ? AND user_id = ?", t.ID, userID).Scan(&role); err != nil {
			return nil, err
		}
		list.Items = append(list.Items, &quire.TeamMembership{Team: *t, Role: quire.TeamRole(role)})
	}
	return list, nil
}

// listTeamsWhere pages teams by (created_at, id); join names the alias of a
// team_members join the where clause uses, if any.
func (r reader) listTeamsWhere(ctx context.Context, where string, args []any, p Page, join string) (*List[*quire.Team], error) {
	from := " FROM teams t"
	if join != "" {
		from += " JOIN team_members " + join + " ON " + join + ".team_id = t.id"
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*)"+from, "SELECT "+teamColumns+from, where, args,
		keysetOrder{key: "t.created_at", id: "t.id", numeric: true}, p,
		scanWithCursor(scanTeam, func(t *quire.Team) Cursor { return Cursor{Num: micros(t.CreatedAt), ID: t.ID} }))
}

// TeamRole returns a user's role in a team, or "" when they are not in it.
func (r reader) TeamRole(ctx context.Context, teamID, userID string) (quire.TeamRole, error) {
	var role string
	err := r.q.queryRow(ctx, "SELECT role FROM team_members WHERE team_id = ? AND user_id = ?", teamID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return quire.TeamRole(role), err
}

// ListTeamMembers lists a team's members with their team role, in the order
// they were added.
func (r reader) ListTeamMembers(ctx context.Context, orgID, teamID string, p Page) (*List[*quire.TeamMembership], error) {
	list := &List[*quire.TeamMembership]{}
	if err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM team_members WHERE team_id = ?", teamID).Scan(&list.Count); err != nil {
		return nil, err
	}
	after, afterArgs, order := keyset("tm.added_at", "tm.user_id", false, p.After, true)
	query := strings.Replace(memberSelect, "FROM members m", "FROM team_members tm JOIN members m ON m.user_id = tm.user_id", 1)
	query = strings.Replace(query, "SELECT m.org_id,", "SELECT tm.role, tm.added_at, m.org_id,", 1)
	rows, err := r.q.query(ctx, query+" WHERE tm.team_id = ? AND m.org_id = ?"+after+order+" LIMIT ?",
		append(append([]any{teamID, orgID}, afterArgs...), p.Limit+1)...)
	if err != nil {
		return nil, err
	}
	list.Items, list.Next, err = collectPage(rows, p.Limit, func(rows *sql.Rows) (*quire.TeamMembership, Cursor, error) {
		var row memberRow
		var role string
		var added int64
		if err := rows.Scan(append([]any{&role, &added}, row.dest()...)...); err != nil {
			return nil, Cursor{}, err
		}
		m := row.value()
		return &quire.TeamMembership{Member: *m, Role: quire.TeamRole(role)}, Cursor{Num: added, ID: m.User.ID}, nil
	})
	if err != nil {
		return nil, err
	}
	for _, tm := range list.Items {
		if err := r.fillSpaceCounts(ctx, orgID, &tm.Member); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// CreateTeam creates a team with the given members (user ids of org members).
func (db *DB) CreateTeam(ctx context.Context, orgID, title string, memberIDs []string) (t *quire.Team, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		id := newID()
		if _, err := tx.q.exec(ctx, "INSERT INTO teams (id, org_id, title, title_key, created_at) VALUES (?, ?, ?, ?, ?)",
			id, orgID, title, strings.ToLower(title), micros(tx.Now)); err != nil {
			return err
		}
		for i, uid := range memberIDs {
			if _, err := tx.Member(ctx, orgID, uid); err != nil {
				return quire.Errorf(quire.CodeInvalid, "members[%d]: %q is not a member of the organization", i, uid)
			}
			if err := tx.putTeamMember(ctx, id, uid, quire.TeamMember, false); err != nil {
				return err
			}
		}
		t, err = tx.Team(ctx, orgID, id)
		return err
	})
	return t, err
}

// RenameTeam sets a team's title.
func (db *DB) RenameTeam(ctx context.Context, orgID, teamID, title string) (*quire.Team, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "UPDATE teams SET title = ?, title_key = ? WHERE org_id = ? AND id = ?", title, strings.ToLower(title), orgID, teamID); err != nil {
			return err
		}
		return nil
	}, func(tx *Tx) (*quire.Team, error) { return tx.Team(ctx, orgID, teamID) })
}

// DeleteTeam deletes a team, its memberships and its grants.
func (db *DB) DeleteTeam(ctx context.Context, orgID, teamID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM team_members WHERE team_id = ?", teamID); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM content_grants WHERE org_id = ? AND principal_kind = 'team' AND principal_id = ?", orgID, teamID); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "DELETE FROM teams WHERE id = ?", teamID)
		return err
	})
}

// putTeamMember adds a user to a team with role, or, when update is set,
// changes the role of one already in it.
func (tx *Tx) putTeamMember(ctx context.Context, teamID, userID string, role quire.TeamRole, update bool) error {
	conflict := "DO NOTHING"
	if update {
		conflict = "DO UPDATE SET role = excluded.role"
	}
	_, err := tx.q.exec(ctx, "INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?) ON CONFLICT (team_id, user_id) "+conflict,
		teamID, userID, string(role), micros(tx.Now))
	return err
}

// TeamMembersUpdate adds, re-roles and removes team members at once.
// Users are named by id or e-mail address.
type TeamMembersUpdate struct {
	Add         []string
	Remove      []string
	Memberships map[string]quire.TeamRole // user id → role; adds the user if needed
}

// UpdateTeamMembers applies u in one transaction. Contract §4.14: a user in
// both add and remove ends removed.
func (db *DB) UpdateTeamMembers(ctx context.Context, orgID, teamID string, u TeamMembersUpdate) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			return err
		}
		resolve := func(field string, refs []string) ([]string, error) {
			ids := make([]string, len(refs))
			for i, ref := range refs {
				id, err := tx.resolveMember(ctx, orgID, ref)
				if err != nil {
					return nil, quire.Errorf(quire.CodeInvalid, "%s[%d]: %q is not a member of the organization", field, i, ref)
				}
				ids[i] = id
			}
			return ids, nil
		}
		add, err := resolve("add", u.Add)
		if err != nil {
			return err
		}
		remove, err := resolve("remove", u.Remove)
		if err != nil {
			return err
		}
		for _, id := range add {
			if err := tx.putTeamMember(ctx, teamID, id, quire.TeamMember, false); err != nil {
				return err
			}
		}
		for ref, role := range u.Memberships {
			id, err := tx.resolveMember(ctx, orgID, ref)
			if err != nil {
				return quire.Errorf(quire.CodeInvalid, "memberships: %q is not a member of the organization", ref)
			}
			if err := tx.putTeamMember(ctx, teamID, id, role, true); err != nil {
				return err
			}
		}
		for _, id := range remove {
			if _, err := tx.q.exec(ctx, "DELETE FROM team_members WHERE team_id = ? AND user_id = ?", teamID, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// resolveMember finds an org member by user id or e-mail address.
func (tx *Tx) resolveMember(ctx context.Context, orgID, ref string) (string, error) {
	var id string
	err := tx.q.queryRow(ctx, "SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id WHERE m.org_id = ? AND (u.id = ? OR u.email = ?)",
		orgID, ref, quire.NormalizeEmail(ref)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", quire.Errorf(quire.CodeNotFound, "member not found")
	}
	return id, err
}

// PutTeamMember adds an org member to a team or changes their role in it; an
// empty role adds them as a member or leaves an existing member's role as it is.
func (db *DB) PutTeamMember(ctx context.Context, orgID, teamID, userID string, role quire.TeamRole) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			return err
		}
		if _, err := tx.Member(ctx, orgID, userID); err != nil {
			return err
		}
		if role == "" {
			return tx.putTeamMember(ctx, teamID, userID, quire.TeamMember, false)
		}
		return tx.putTeamMember(ctx, teamID, userID, role, true)
	})
}

// RemoveTeamMember takes a user out of a team; it is not an error if they
// were not in it.
func (db *DB) RemoveTeamMember(ctx context.Context, orgID, teamID, userID string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "DELETE FROM team_members WHERE team_id = ? AND user_id = ?", teamID, userID)
		return err
	})
}

// OwnedTeams returns the ids of the organization's teams a user owns.
func (r reader) OwnedTeams(ctx context.Context, orgID, userID string) (map[string]bool, error) {
	rows, err := r.q.query(ctx, `SELECT t.id FROM teams t JOIN team_members tm ON tm.team_id = t.id
		WHERE t.org_id = ? AND tm.user_id = ? AND tm.role = 'owner'`, orgID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	owned := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		owned[id] = true
	}
	return owned, rows.Err()
}

// teamByID returns a team of any organization.
func (r reader) teamByID(ctx context.Context, teamID string) (*quire.Team, error) {
	t, err := scanTeam(r.q.queryRow(ctx, teamSelect+" WHERE t.id = ?", teamID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "team not found")
	}
	return t, err
}
