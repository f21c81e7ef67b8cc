package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strconv"

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

// The lists below are paged in memory: what a revision or a site's
// structure holds (files, links, search results, sections) is read whole,
// and its pages cut out of it.

// PageOf cuts page p out of items sorted by their cursor (Str, then ID),
// which key gives.
func PageOf[T any](items []T, p Page, key func(T) Cursor) *List[T] {
	start := 0
	if p.After != nil {
		start, _ = slices.BinarySearchFunc(items, *p.After, func(it T, c Cursor) int {
			k := key(it)
			return cmp.Or(cmp.Compare(k.Str, c.Str), cmp.Compare(k.ID, c.ID))
		})
		if start < len(items) && key(items[start]) == *p.After {
			start++
		}
	}
	return pageFrom(items, start, p.Limit, func(last T, _ int) Cursor { return key(last) })
}

// PageByPosition cuts page p out of items that have no sortable key, by
// their position: the cursor holds the index of the next item.
func PageByPosition[T any](items []T, p Page) *List[T] {
	start := 0
	if p.After != nil {
		start, _ = strconv.Atoi(p.After.ID)
	}
	return pageFrom(items, min(max(start, 0), len(items)), p.Limit, func(_ T, end int) Cursor { return Cursor{ID: strconv.Itoa(end)} })
}

// PageInOrder cuts page p out of items in an order that may change from one
// page to the next (a ranking, a site's structure), which id names, and
// returns the index of its first item: a page starts after the item its
// cursor names, or, when that one is gone, at the index the cursor holds.
func PageInOrder[T any](items []T, p Page, id func(T) string) (*List[T], int) {
	start := 0
	if p.After != nil {
		start = min(max(int(p.After.Num), 0), len(items))
		for i, it := range items {
			if id(it) == p.After.ID {
				start = i + 1
				break
			}
		}
	}
	return pageFrom(items, start, p.Limit, func(last T, end int) Cursor { return Cursor{Num: int64(end), ID: id(last)} }), start
}

// pageFrom is the page of up to limit items from index start, a copy; next
// makes the next page's cursor from the page's last item and the index
// after it.
func pageFrom[T any](items []T, start, limit int, next func(last T, end int) Cursor) *List[T] {
	end := min(start+limit, len(items))
	list := &List[T]{Items: append([]T{}, items[start:end]...), Count: len(items)}
	if end < len(items) {
		c := next(items[end-1], end)
		list.Next = &c
	}
	return list
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
