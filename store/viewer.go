package store

import (
	"context"
	"database/sql"
	"strings"

	"github.com/quiredocs/quire"
)

// placeholders returns "?, ?, …" for n values.
func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// Viewer loads, in one query, what decides userID's role on the content of
// orgID: their membership, the grants to them and their teams, and the
// collections' default levels. ids limits grants and levels to those content
// ids (a space or collection and its ancestors); nil loads the whole org.
func (r reader) Viewer(ctx context.Context, orgID, userID string, ids []string) (*quire.Viewer, error) {
	grantsIn, levelsIn, inArgs := "", "", []any{}
	if ids != nil {
		grantsIn = " AND g.content_id IN (" + placeholders(len(ids)) + ")"
		levelsIn = " AND c.id IN (" + placeholders(len(ids)) + ")"
		for _, id := range ids {
			inArgs = append(inArgs, id)
		}
	}
	query := `SELECT 'm', '', role FROM members WHERE org_id = ? AND user_id = ?
	UNION ALL SELECT 'g', g.content_id, g.role FROM content_grants g WHERE g.org_id = ?` + grantsIn + `
		AND ((g.principal_kind = 'user' AND g.principal_id = ?)
		  OR (g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE user_id = ?)))
	UNION ALL SELECT 'c', c.id, c.default_level FROM collections c WHERE c.org_id = ?` + levelsIn
	args := append([]any{orgID, userID, orgID}, inArgs...)
	args = append(append(args, userID, userID, orgID), inArgs...)
	rows, err := r.q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	v := &quire.Viewer{UserID: userID, Grants: map[string]quire.Role{}, Levels: map[string]quire.DefaultLevel{}}
	for rows.Next() {
		var kind, id string
		var role sql.NullString
		if err := rows.Scan(&kind, &id, &role); err != nil {
			return nil, err
		}
		switch kind {
		case "m":
			v.Member, v.OrgRole = true, quire.Role(role.String)
		case "g":
			v.Grants[id] = v.Grants[id].Max(quire.Role(role.String))
		case "c":
			v.Levels[id] = quire.DefaultLevel(role.String)
		}
	}
	return v, rows.Err()
}

// pathOf turns ancestor ids into the stored path, "a/b/".
func pathOf(ancestors []string) string {
	if len(ancestors) == 0 {
		return ""
	}
	return strings.Join(ancestors, "/") + "/"
}

// ancestorsOf is the inverse of pathOf.
func ancestorsOf(path string) []string {
	if path == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(path, "/"), "/")
}

func nullLevel(l quire.DefaultLevel) sql.NullString {
	return sql.NullString{String: string(l), Valid: l != quire.LevelNone}
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
