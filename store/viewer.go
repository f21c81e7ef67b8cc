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
// ids of orgID (a space or collection and its ancestors); none loads the
// whole org.
func (r reader) Viewer(ctx context.Context, orgID, userID string, ids []string) (*quire.Viewer, error) {
	query, args := orgViewerQuery, []any{orgID, userID, orgID, userID, orgID, userID, orgID}
	if len(ids) > 0 {
		query, args = chainViewerQuery(len(ids)), make([]any, 0, len(ids)+4)
		for _, id := range ids {
			args = append(args, id)
		}
		args = append(args, orgID, userID, userID, userID)
	}
	rows, err := r.q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	v := &quire.Viewer{UserID: userID, Grants: map[string]quire.Role{}, Levels: map[string]quire.DefaultLevel{}}
	var kind, id string
	var role sql.NullString
	for rows.Next() {
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

// levelSet leaves out the collections that inherit their level, which
// quire.Viewer.Levels may omit: most do, and each row costs.
const levelSet = "COALESCE(c.default_level, '') <> 'inherit'"

// orgViewerQuery is the Viewer query for the whole org. Grants to the user
// and to their teams are separate arms so that each reads the principal
// index on all its columns.
const orgViewerQuery = `SELECT 'm', '', role FROM members WHERE org_id = ? AND user_id = ?
	UNION ALL SELECT 'g', g.content_id, g.role FROM content_grants g
		WHERE g.org_id = ? AND g.principal_kind = 'user' AND g.principal_id = ?
	UNION ALL SELECT 'g', g.content_id, g.role FROM content_grants g
		WHERE g.org_id = ? AND g.principal_kind = 'team' AND g.principal_id IN (SELECT team_id FROM team_members WHERE user_id = ?)
	UNION ALL SELECT 'c', c.id, c.default_level FROM collections c WHERE c.org_id = ? AND ` + levelSet

// chainViewerQueries are the Viewer queries for 1 to 16 content ids, built
// once: GET S runs one per request.
var chainViewerQueries = func() (q [16]string) {
	for n := range q {
		q[n] = buildChainViewerQuery(n + 1)
	}
	return q
}()

func chainViewerQuery(n int) string {
	if n <= len(chainViewerQueries) {
		return chainViewerQueries[n-1]
	}
	return buildChainViewerQuery(n)
}

// buildChainViewerQuery writes the Viewer query for n content ids: grants
// and levels are found by primary key from the ids, a few lookups per id
// (one more per team of the user) whatever the size of the org. The ids are
// a table of VALUES, read once: SQLite builds a temporary index for each
// "IN (…)" list instead, which cost a third more here. Its arguments: the
// ids, orgID, then userID three times.
func buildChainViewerQuery(n int) string {
	return `WITH chain (id) AS (VALUES ` + strings.TrimSuffix(strings.Repeat("(?), ", n), ", ") + `)
	SELECT 'm', '', role FROM members WHERE org_id = ? AND user_id = ?
	UNION ALL SELECT 'g', g.content_id, g.role FROM chain JOIN content_grants g
		ON g.content_id = chain.id AND g.principal_kind = 'user' AND g.principal_id = ?
	UNION ALL SELECT 'g', g.content_id, g.role FROM team_members t CROSS JOIN chain JOIN content_grants g
		ON g.content_id = chain.id AND g.principal_kind = 'team' AND g.principal_id = t.team_id WHERE t.user_id = ?
	UNION ALL SELECT 'c', c.id, c.default_level FROM chain JOIN collections c ON c.id = chain.id WHERE ` + levelSet
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
