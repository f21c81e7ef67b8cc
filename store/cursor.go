package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"

	"github.com/quiredocs/quire"
)

// Cursor is the keyset position after which a list page starts: the sort key
// of the last row returned (a number or a string) and its id as tie-breaker.
type Cursor struct {
	Num int64  `json:"n,omitempty"`
	Str string `json:"s,omitempty"`
	ID  string `json:"i"`
}

// Encode returns the opaque page token given to clients.
func (c Cursor) Encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor parses a page token; anything that is not one is a 400.
func DecodeCursor(page string) (*Cursor, error) {
	bad := quire.Errorf(quire.CodeInvalid, "page: not a valid page token")
	if len(page) > 2048 {
		return nil, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(page)
	if err != nil {
		return nil, bad
	}
	var c Cursor
	if err := json.Unmarshal(b, &c); err != nil || c.ID == "" {
		return nil, bad
	}
	return &c, nil
}

// Page asks for one page of a list.
type Page struct {
	After *Cursor // nil for the first page
	Limit int
}

// List is one page of results: the items, the total count of matching rows,
// and the cursor of the next page (nil on the last).
type List[T any] struct {
	Items []T
	Count int
	Next  *Cursor
}

// keyset builds the WHERE clause and ORDER BY of a keyset page over (key, id).
// The key column must not be NULL for listed rows.
func keyset(keyCol, idCol string, desc bool, after *Cursor, numeric bool) (where string, args []any, order string) {
	dir, cmp := "ASC", ">"
	if desc {
		dir, cmp = "DESC", "<"
	}
	order = " ORDER BY " + keyCol + " " + dir + ", " + idCol + " " + dir
	if after == nil {
		return "", nil, order
	}
	var key any = after.Str
	if numeric {
		key = after.Num
	}
	where = " AND (" + keyCol + ", " + idCol + ") " + cmp + " (?, ?)"
	return where, []any{key, after.ID}, order
}

// collectPage scans up to limit rows of a query that asked for limit+1; the
// extra row only tells that a next page exists, which starts after the last
// row kept.
func collectPage[T any](rows *sql.Rows, limit int, scan func(*sql.Rows) (T, Cursor, error)) (items []T, next *Cursor, err error) {
	defer rows.Close()
	items = []T{}
	var last Cursor
	for rows.Next() {
		if len(items) == limit {
			return items, &last, nil
		}
		item, c, err := scan(rows)
		if err != nil {
			return nil, nil, err
		}
		items = append(items, item)
		last = c
	}
	return items, nil, rows.Err()
}

// keysetOrder orders a list by a key column then an id column (keyset).
type keysetOrder struct {
	key, id       string
	desc, numeric bool
}

// listKeyset lists the page p of the rows that where (with args) keeps:
// count (a SELECT COUNT(*) … FROM clause) counts them all, and selectFrom
// (a SELECT … FROM clause) reads the page in order, each row read by scan.
func listKeyset[T any](ctx context.Context, q querier, count, selectFrom, where string, args []any, order keysetOrder, p Page, scan func(*sql.Rows) (T, Cursor, error)) (*List[T], error) {
	list := &List[T]{}
	if err := q.queryRow(ctx, count+where, args...).Scan(&list.Count); err != nil {
		return nil, err
	}
	after, afterArgs, orderBy := keyset(order.key, order.id, order.desc, p.After, order.numeric)
	rows, err := q.query(ctx, selectFrom+where+after+orderBy+" LIMIT ?", append(append(args, afterArgs...), p.Limit+1)...)
	if err != nil {
		return nil, err
	}
	list.Items, list.Next, err = collectPage(rows, p.Limit, scan)
	return list, err
}

// scanWithCursor reads a row with scan and its cursor with cursor, for
// collectPage.
func scanWithCursor[T any](scan func(interface{ Scan(...any) error }) (T, error), cursor func(T) Cursor) func(*sql.Rows) (T, Cursor, error) {
	return func(rows *sql.Rows) (T, Cursor, error) {
		it, err := scan(rows)
		if err != nil {
			var zero T
			return zero, Cursor{}, err
		}
		return it, cursor(it), nil
	}
}
