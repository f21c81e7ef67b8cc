package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/internal/lru"
)

// Revisions are immutable, so their decoded trees are cached by root hash
// for as long as memory allows, and objects already stored are not written
// again. These caches only ever hold committed data. Comment rows are kept
// here too, by version (see comments_cache.go).
type contentCache struct {
	trees     *lru.Cache[string, *content.Tree]
	objects   *lru.Cache[string, []byte]
	revisions *lru.Cache[string, *Revision] // by id; revisions never change
	comments  *lru.Cache[string, cachedComment]
	indexed   *lru.Cache[string, []*content.Page] // the searchable pages of trees, by root
}

func newContentCache() *contentCache {
	return &contentCache{trees: lru.New[string, *content.Tree]("store.trees"), objects: lru.New[string, []byte]("store.objects"),
		revisions: lru.New[string, *Revision]("store.revisions"), comments: lru.New[string, cachedComment]("store.comments"),
		indexed: lru.New[string, []*content.Page]("store.indexed")}
}

// revisionCost estimates the memory a revision row holds: its strings and
// the struct around them.
func revisionCost(rev *Revision) int {
	n := 160 + len(rev.ID) + len(rev.SpaceID) + len(rev.Type) + len(rev.Root) + len(rev.MergedFrom) + len(rev.CreatedBy)
	for _, p := range rev.Parents {
		n += 16 + len(p)
	}
	return n
}

// treeCost estimates the memory a decoded tree holds.
func treeCost(t *content.Tree) int { return t.Cost() }

// Revision is one immutable state of a space's content.
type Revision struct {
	ID         string
	SpaceID    string
	Parents    []string
	Type       string // edits, merge, update
	CreatedAt  time.Time
	Root       string // root object of the tree; "" for the empty tree
	MergedFrom string // for a merge revision, the change request merged
	CreatedBy  string
}

// Revision types, as the reference names them.
const (
	RevisionEdits  = "edits"
	RevisionMerge  = "merge"
	RevisionUpdate = "update"
)

// Revision returns a revision of a space.
func (r reader) Revision(ctx context.Context, spaceID, id string) (*Revision, error) {
	if rev, ok := r.content.revisions.Get(id); ok && rev.SpaceID == spaceID {
		return rev, nil
	}
	var rev Revision
	var parents string
	var created int64
	var mergedFrom, createdBy sql.NullString
	err := r.q.queryRow(ctx, `SELECT id, space_id, parents, type, created_at, root, merged_from, created_by
		FROM revisions WHERE id = ? AND space_id = ?`, id, spaceID).
		Scan(&rev.ID, &rev.SpaceID, &parents, &rev.Type, &created, &rev.Root, &mergedFrom, &createdBy)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "revision not found")
	}
	if err != nil {
		return nil, err
	}
	if err := parseJSONText(parents, &rev.Parents); err != nil {
		return nil, err
	}
	if rev.Type != RevisionMerge && rev.Type != RevisionUpdate {
		rev.Type = RevisionEdits // a space's first revision counts as edits
	}
	rev.CreatedAt, rev.MergedFrom, rev.CreatedBy = fromMicros(created), mergedFrom.String, createdBy.String
	r.content.revisions.Add(id, &rev, revisionCost(&rev))
	return &rev, nil
}

// Tree returns the tree whose root object is root. The tree is shared with
// other callers: it must not be modified (Clone it to edit).
func (r reader) Tree(ctx context.Context, root string) (*content.Tree, error) {
	if t, ok := r.content.trees.Get(root); ok {
		return t, nil
	}
	t, err := content.Decode(root, func(hashes []string) (content.Objects, error) { return r.objects(ctx, hashes) })
	if err != nil {
		return nil, err
	}
	r.content.trees.Add(root, t, treeCost(t))
	return t, nil
}

// RevisionTree returns a revision of a space and its tree (shared: do not modify).
func (r reader) RevisionTree(ctx context.Context, spaceID, id string) (*Revision, *content.Tree, error) {
	rev, err := r.Revision(ctx, spaceID, id)
	if err != nil {
		return nil, nil, err
	}
	t, err := r.Tree(ctx, rev.Root)
	return rev, t, err
}

// objectBatch bounds the parameters of one IN (…) or VALUES list.
const objectBatch = 400

// objects fetches objects by hash from the cache, then the database.
func (r reader) objects(ctx context.Context, hashes []string) (content.Objects, error) {
	out := make(content.Objects, len(hashes))
	var missing []string
	for _, h := range hashes {
		if b, ok := r.content.objects.Get(h); ok {
			out[h] = b
		} else if _, dup := out[h]; !dup {
			missing = append(missing, h)
		}
	}
	for len(missing) > 0 {
		batch := missing[:min(objectBatch, len(missing))]
		missing = missing[len(batch):]
		rows, err := r.q.query(ctx, "SELECT hash, data FROM objects WHERE hash IN ("+placeholders(len(batch))+")", anys(batch)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var h string
			var b []byte
			if err := rows.Scan(&h, &b); err != nil {
				rows.Close()
				return nil, err
			}
			out[h] = b
			r.content.objects.Add(h, b, len(b)+len(h))
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// putTree stores the objects of t that are not stored yet and returns its
// root. t becomes shared once the transaction commits: do not modify it.
// A fork of a stored tree encodes only what it changed.
//
// Whether an object is stored is asked of the database, never of the
// cache, under the content lock (gc.go): a collection may have removed an
// object this server still remembers.
func (tx *Tx) putTree(ctx context.Context, t *content.Tree) (string, error) {
	root, objs := content.EncodeShared(t)
	if err := tx.lockContent(ctx, false); err != nil {
		return "", err
	}
	unknown := make([]string, 0, len(objs))
	for h := range objs {
		unknown = append(unknown, h)
	}
	stored := map[string]bool{}
	for i := 0; i < len(unknown); i += objectBatch {
		batch := unknown[i:min(i+objectBatch, len(unknown))]
		rows, err := tx.q.query(ctx, "SELECT hash FROM objects WHERE hash IN ("+placeholders(len(batch))+")", anys(batch)...)
		if err != nil {
			return "", err
		}
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return "", err
			}
			stored[h] = true
		}
		if err := rows.Close(); err != nil {
			return "", err
		}
	}
	var rows []any
	for _, h := range unknown {
		if !stored[h] {
			rows = append(rows, h, objs[h], micros(tx.Now))
		}
	}
	for i := 0; i < len(rows); i += 3 * 100 {
		batch := rows[i:min(i+3*100, len(rows))]
		values := strings.TrimSuffix(strings.Repeat("(?, ?, ?), ", len(batch)/3), ", ")
		if _, err := tx.q.exec(ctx, "INSERT INTO objects (hash, data, created_at) VALUES "+values+" ON CONFLICT (hash) DO NOTHING", batch...); err != nil {
			return "", err
		}
	}
	tx.AfterCommit(func() {
		for h, b := range objs {
			tx.content.objects.Add(h, b, len(b)+len(h))
		}
		tx.content.trees.Add(root, t, treeCost(t))
	})
	return root, nil
}

// addRevision stores t as a new revision of a space.
func (tx *Tx) addRevision(ctx context.Context, spaceID string, parents []string, typ string, t *content.Tree, mergedFrom, userID string) (*Revision, error) {
	root, err := tx.putTree(ctx, t)
	if err != nil {
		return nil, err
	}
	rev := &Revision{ID: newID(), SpaceID: spaceID, Parents: parents, Type: typ, CreatedAt: tx.Now, Root: root, MergedFrom: mergedFrom, CreatedBy: userID}
	_, err = tx.q.exec(ctx, `INSERT INTO revisions (id, space_id, parents, type, created_at, root, merged_from, created_by)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		rev.ID, spaceID, jsonText(parents), typ, micros(tx.Now), root, nullString(mergedFrom), nullString(userID))
	return rev, err
}

func parseJSONText(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// ContentStats counts the stored content objects and their bytes, to watch
// how storage grows with revisions.
func (r reader) ContentStats(ctx context.Context) (objects int, bytes int64, err error) {
	err = r.q.queryRow(ctx, "SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM objects").Scan(&objects, &bytes)
	return objects, bytes, err
}
