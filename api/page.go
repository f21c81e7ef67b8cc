package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// DefaultLimit is the page size of lists when the client gives no limit.
const DefaultLimit = 50

// MaxLimit is the largest page a client may ask for. Contract §8.
const MaxLimit = 1000

// pageParams reads the page and limit query parameters.
func pageParams(r *http.Request) (store.Page, error) {
	p := store.Page{Limit: DefaultLimit}
	q := query(r)
	if v := q.Get("limit"); v != "" || q.Has("limit") {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			return p, errorf(quire.CodeInvalid, "limit: must be a whole number from 1 to %d", MaxLimit)
		}
		p.Limit = n
	}
	if v := q.Get("page"); v != "" || q.Has("page") {
		c, err := store.DecodeCursor(v)
		if err != nil {
			return p, err
		}
		p.After = c
	}
	return p, nil
}

// listJSON is the envelope of every list answer (wire.List).
type listJSON[T any] = wire.List[T]

// nextJSON is the cursor of a list's next page (wire.Next).
type nextJSON = wire.Next

// listOf makes the envelope of one page, converting each item with toJSON.
func listOf[T, J any](list *store.List[T], toJSON func(T) J) listJSON[J] {
	return wire.ListOf(list, toJSON)
}

// itemsOf makes the envelope of a page whose items are already wire types.
func itemsOf[T any](list *store.List[T]) listJSON[T] { return wire.Items(list) }

// writeList writes the envelope of one page, converting each item with toJSON.
func writeList[T, J any](w http.ResponseWriter, list *store.List[T], toJSON func(T) J) error {
	return writeJSON(w, http.StatusOK, listOf(list, toJSON))
}
