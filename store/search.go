package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/search"
)

// MaxSearchRows bounds the sections a search of a space answers with (see
// revision.View.Search): the best ones by score, enough for many pages of
// results.
const MaxSearchRows = 1000

// SearchHit is a section that matched a search; search ranks pages by
// them.
type SearchHit = search.Hit

// MaxMatchedSections bounds the sections MatchSpaceRoot returns: a search
// that holds more finds those first in the index's order.
const MaxMatchedSections = 100_000

// MatchSpaceRoot returns, after bringing the space's index up to date,
// every section of its current content that holds every term (the last
// one also as a prefix), unscored (search.ScoreSections scores them), and
// the tree root of the content they were found in. The index only finds:
// it does not rank, which costs far more than finding for words that most
// sections hold.
func (db *DB) MatchSpaceRoot(ctx context.Context, spaceID string, terms []string) ([]SearchHit, string, error) {
	return db.matchSpace(ctx, spaceID, terms, nil)
}

// MatchSpacePages is MatchSpaceRoot for some pages of the space only: after
// a merge, a search need only look again in the pages whose text changed.
func (db *DB) MatchSpacePages(ctx context.Context, spaceID string, terms, pageIDs []string) ([]SearchHit, string, error) {
	if pageIDs == nil {
		pageIDs = []string{}
	}
	return db.matchSpace(ctx, spaceID, terms, pageIDs)
}

// matchSpace matches in the space's pages pageIDs, or in all of them when
// nil.
func (db *DB) matchSpace(ctx context.Context, spaceID string, terms, pageIDs []string) ([]SearchHit, string, error) {
	if len(terms) == 0 {
		return []SearchHit{}, "", nil
	}
	if err := db.indexSpace(ctx, spaceID); err != nil {
		return nil, "", err
	}
	if db.dialect.name() == "postgres" {
		where, args := "", []any{spaceID, strings.Join(terms, " & ") + ":*"}
		if pageIDs != nil {
			where = " AND s.page_id IN (" + db.jsonValues() + ")"
			args = append(args, jsonText(pageIDs))
		}
		return db.rootedHits(ctx, spaceID, `SELECT x.root, h.page_id, h.position, 0 FROM search_spaces x LEFT JOIN (
				SELECT s.page_id, s.position FROM search_sections s
				WHERE s.space_id = ? AND s.document @@ to_tsquery('quire_english', ?)`+where+` LIMIT ?) h ON true
			WHERE x.space_id = ?`, append(args, MaxMatchedSections, spaceID)...)
	}
	words := `"` + strings.Join(terms, `" "`) + `"*`
	if pageIDs != nil {
		// The index is asked once, between the first and the last row of
		// the pages: pages that changed were written last, so their rows
		// are close together. (Asked row by row, it would expand a prefix
		// term over the whole index for each row.)
		return db.rootedHits(ctx, spaceID, `WITH c AS (SELECT id, page_id, position FROM search_sections
				WHERE space_id = ? AND page_id IN (SELECT value FROM json_each(?)))
			SELECT x.root, h.page_id, h.position, 0 FROM search_spaces x LEFT JOIN (
				SELECT c.page_id, c.position FROM search_fts CROSS JOIN c ON c.id = search_fts.rowid
				WHERE search_fts MATCH ? AND search_fts.rowid BETWEEN (SELECT min(id) FROM c) AND (SELECT max(id) FROM c)) h ON 1 = 1
			WHERE x.space_id = ?`, spaceID, jsonText(pageIDs), words, spaceID)
	}
	return db.rootedHits(ctx, spaceID, `SELECT x.root, h.page_id, h.position, 0 FROM search_spaces x LEFT JOIN (
			SELECT s.page_id, s.position FROM search_fts JOIN search_sections s ON s.id = search_fts.rowid
			WHERE search_fts MATCH ? AND s.space_id = ? LIMIT ?) h ON 1 = 1
		WHERE x.space_id = ?`, words, spaceID, MaxMatchedSections, spaceID)
}

// IndexedSection is a section as the index holds it: its heading and its
// text, folded (search.Fold), with the page's title and description.
type IndexedSection struct {
	PageText, Title, Body string
}

// IndexedSections returns the sections the index holds of some pages of a
// space, by page id and in their order, and the tree root they are of:
// what a search scores pages by without splitting their markdown again.
func (db *DB) IndexedSections(ctx context.Context, spaceID string, pageIDs []string) (map[string][]IndexedSection, string, error) {
	// One statement, so that the root and the rows are of one snapshot.
	rows, err := db.q.query(ctx, `SELECT x.root, s.page_id, s.page_text, s.section_title, s.body FROM search_spaces x
		LEFT JOIN search_sections s ON s.space_id = x.space_id AND s.page_id IN (`+db.jsonValues()+`)
		WHERE x.space_id = ? ORDER BY s.page_id, s.position`, jsonText(pageIDs), spaceID)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	out := map[string][]IndexedSection{}
	var root string
	for rows.Next() {
		var page, pageText, title, body sql.NullString
		if err := rows.Scan(&root, &page, &pageText, &title, &body); err != nil {
			return nil, "", err
		}
		if page.Valid {
			out[page.String] = append(out[page.String], IndexedSection{pageText.String, title.String, body.String})
		}
	}
	return out, root, rows.Err()
}

// jsonValues selects the strings of a JSON array parameter (jsonText).
func (db *DB) jsonValues() string {
	if db.dialect.name() == "postgres" {
		return "SELECT jsonb_array_elements_text(?::jsonb)"
	}
	return "SELECT value FROM json_each(?)"
}

// rootedHits runs a search query of rows (root, page, position, score) of
// one space, the hit columns NULL on the one row of a search that found
// nothing.
func (db *DB) rootedHits(ctx context.Context, spaceID, query string, args ...any) ([]SearchHit, string, error) {
	rows, err := db.q.query(ctx, query, args...)
	if err != nil {
		return nil, "", err
	}
	defer rows.Close()
	hits := []SearchHit{}
	var root string
	for rows.Next() {
		var page sql.NullString
		var pos sql.NullInt64
		var score sql.NullFloat64
		if err := rows.Scan(&root, &page, &pos, &score); err != nil {
			return nil, "", err
		}
		if page.Valid {
			hits = append(hits, SearchHit{SpaceID: spaceID, PageID: page.String, Position: int(pos.Int64), Score: score.Float64})
		}
	}
	return hits, root, rows.Err()
}

// SearchSpacesAny returns up to limit sections of the spaces' current
// content that hold any of the terms, best first (those holding more of
// them, and rarer ones, rank higher): a question's words, of which the
// documentation holds some. Each space's index is brought up to date.
func (db *DB) SearchSpacesAny(ctx context.Context, spaceIDs, terms []string, limit int) ([]SearchHit, error) {
	if len(terms) == 0 || len(spaceIDs) == 0 {
		return []SearchHit{}, nil
	}
	ids := jsonText(spaceIDs)
	stale, err := db.staleSearchSpaces(ctx, "sp.id IN ("+db.jsonValues()+")", ids)
	if err != nil {
		return nil, err
	}
	for _, id := range stale {
		if err := db.indexSpace(ctx, id); err != nil {
			return nil, err
		}
	}
	if db.dialect.name() == "postgres" {
		return db.searchHits(ctx, `SELECT s.space_id, s.page_id, s.position, ts_rank(s.document, q) AS score
			FROM search_sections s, to_tsquery('quire_english', ?) q
			WHERE s.space_id IN (SELECT jsonb_array_elements_text(?::jsonb)) AND s.document @@ q
			ORDER BY score DESC, s.space_id, s.page_id, s.position LIMIT ?`,
			strings.Join(terms, " | "), ids, limit)
	}
	match := `"` + strings.Join(terms, `" OR "`) + `"`
	return db.searchHits(ctx, `SELECT s.space_id, s.page_id, s.position, -bm25(search_fts, 10.0, 4.0, 1.0) AS score
		FROM search_fts JOIN search_sections s ON s.id = search_fts.rowid
		WHERE search_fts MATCH ? AND s.space_id IN (SELECT value FROM json_each(?))
		ORDER BY score DESC, s.space_id, s.page_id, s.position LIMIT ?`, match, ids, limit)
}

// IndexStaleSpaces brings up to max spaces whose search rows do not hold
// their current content up to date, and returns how many it did: searches
// then find the work done.
func (db *DB) IndexStaleSpaces(ctx context.Context, max int) (int, error) {
	stale, err := db.staleSearchSpaces(ctx, "sp.deleted_at IS NULL ORDER BY sp.id LIMIT ?", max)
	if err != nil {
		return 0, err
	}
	for i, id := range stale {
		if err := db.indexSpace(ctx, id); err != nil {
			return i, err
		}
	}
	return len(stale), nil
}

// staleSearchSpaces lists the spaces that the rest of a WHERE clause
// selects whose index does not hold their current content.
func (db *DB) staleSearchSpaces(ctx context.Context, where string, args ...any) ([]string, error) {
	rows, err := db.q.query(ctx, `SELECT sp.id FROM spaces sp
		JOIN revisions r ON r.id = sp.revision_id
		LEFT JOIN search_spaces x ON x.space_id = sp.id
		WHERE COALESCE(x.root, '') <> r.root AND `+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// searchHits runs a search query of rows (space, page, position, score).
func (db *DB) searchHits(ctx context.Context, query string, args ...any) ([]SearchHit, error) {
	rows, err := db.q.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	hits := []SearchHit{}
	for rows.Next() {
		var h SearchHit
		if err := rows.Scan(&h.SpaceID, &h.PageID, &h.Position, &h.Score); err != nil {
			return nil, err
		}
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// indexSpace brings a space's search rows to its current content: only the
// pages whose text changed since the content they hold are rewritten. The
// space's row in search_spaces is locked first, so that servers indexing at
// once take turns and the second finds the work done.
func (db *DB) indexSpace(ctx context.Context, spaceID string) error {
	var current, indexed string
	err := db.q.queryRow(ctx, `SELECT r.root, COALESCE(x.root, '') FROM spaces sp
		JOIN revisions r ON r.id = sp.revision_id
		LEFT JOIN search_spaces x ON x.space_id = sp.id WHERE sp.id = ?`, spaceID).Scan(&current, &indexed)
	if err != nil || current == indexed {
		return err
	}
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "INSERT INTO search_spaces (space_id, root) VALUES (?, '') ON CONFLICT (space_id) DO NOTHING", spaceID); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "UPDATE search_spaces SET root = root WHERE space_id = ?", spaceID); err != nil {
			return err
		}
		err := tx.q.queryRow(ctx, `SELECT r.root, x.root FROM spaces sp
			JOIN revisions r ON r.id = sp.revision_id
			JOIN search_spaces x ON x.space_id = sp.id WHERE sp.id = ?`, spaceID).Scan(&current, &indexed)
		if err != nil || current == indexed {
			return err
		}
		now, err := tx.Tree(ctx, current)
		if err != nil {
			return err
		}
		before := &content.Tree{} // objects are never deleted: an indexed root stays readable
		if indexed != "" {
			if before, err = tx.Tree(ctx, indexed); err != nil {
				return err
			}
		}
		if err := tx.reindexPages(ctx, spaceID, indexed, before, current, now); err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, "UPDATE search_spaces SET root = ? WHERE space_id = ?", current, spaceID)
		return err
	})
}

// followIndex moves a space's search rows from the tree at root before to
// now, in the transaction that makes now current, when they held before:
// searches then find the index up to date and do not write. Rows that do
// not hold before (never indexed, or behind) are left for the next search
// (indexSpace).
func (tx *Tx) followIndex(ctx context.Context, spaceID, before string, now *content.Tree, nowRoot string) error {
	var indexed string
	err := tx.q.queryRow(ctx, "UPDATE search_spaces SET root = root WHERE space_id = ? RETURNING root", spaceID).Scan(&indexed)
	if errors.Is(err, sql.ErrNoRows) || err == nil && indexed != before {
		return nil
	}
	if err != nil {
		return err
	}
	old, err := tx.Tree(ctx, before)
	if err != nil {
		return err
	}
	if err := tx.reindexPages(ctx, spaceID, before, old, nowRoot, now); err != nil {
		return err
	}
	_, err = tx.q.exec(ctx, "UPDATE search_spaces SET root = ? WHERE space_id = ?", nowRoot, spaceID)
	return err
}

// IndexedPages are the searchable pages of tree t at root (search.Indexed),
// in id order, kept by root: each merge compares the trees before and after
// it, and each search after a merge does too (revision.View.Search).
// Shared: do not modify.
func (r reader) IndexedPages(root string, t *content.Tree) []*content.Page {
	if root == "" { // the empty tree, or one not stored: nothing to key by
		return search.Indexed(t)
	}
	if pages, ok := r.content.indexed.Get(root); ok {
		return pages
	}
	pages := search.Indexed(t)
	cost := len(root) + 64
	for _, p := range pages { // counted in full: they may outlive the tree's cache entry
		cost += 8 + content.PageCost(p)
	}
	r.content.indexed.Add(root, pages, cost)
	return pages
}

// reindexPages rewrites the rows of the pages whose searchable text differs
// between two trees (and their roots), and drops those of pages no longer
// searchable. Pages are written in id order: the index breaks ties of
// score by row.
func (tx *Tx) reindexPages(ctx context.Context, spaceID, beforeRoot string, before *content.Tree, nowRoot string, now *content.Tree) error {
	for _, c := range search.ChangedPages(tx.IndexedPages(beforeRoot, before), tx.IndexedPages(nowRoot, now)) {
		if c.Old != nil {
			if _, err := tx.q.exec(ctx, "DELETE FROM search_sections WHERE space_id = ? AND page_id = ?", spaceID, c.ID); err != nil {
				return err
			}
		}
		if c.New == nil {
			continue
		}
		page := search.PageOf(c.New)
		pageText := search.Fold(strings.TrimSpace(page.Title + "\n" + page.Description))
		for i, s := range page.Sections {
			if _, err := tx.q.exec(ctx, `INSERT INTO search_sections (space_id, page_id, position, section_id, page_text, section_title, body)
				VALUES (?, ?, ?, ?, ?, ?, ?)`, spaceID, c.ID, i, s.ID, pageText, search.Fold(s.Title), search.Fold(s.Body)); err != nil {
				return err
			}
		}
	}
	return nil
}
