package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/jsonappend"
	"github.com/quiredocs/quire/store"
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

// listJSON is the envelope of every list answer (Contract §8): one page of
// items, never null, the count of all of them, and the next page's cursor
// when there is one. An answer with more to say embeds it (linkListJSON).
type listJSON[T any] struct {
	Items []T       `json:"items"`
	Count int       `json:"count"`
	Next  *nextJSON `json:"next,omitempty"`
}

type nextJSON struct {
	Page string `json:"page"`
}

// listOf makes the envelope of one page, converting each item with toJSON.
func listOf[T, J any](list *store.List[T], toJSON func(T) J) listJSON[J] {
	items := make([]J, len(list.Items))
	for i, it := range list.Items {
		items[i] = toJSON(it)
	}
	out := listJSON[J]{Items: items, Count: list.Count}
	if list.Next != nil {
		out.Next = &nextJSON{Page: list.Next.Encode()}
	}
	return out
}

// itemsOf makes the envelope of a page whose items are already wire types.
func itemsOf[T any](list *store.List[T]) listJSON[T] {
	return listOf(list, func(it T) T { return it })
}

// writeList writes the envelope of one page, converting each item with toJSON.
func writeList[T, J any](w http.ResponseWriter, list *store.List[T], toJSON func(T) J) error {
	return writeJSON(w, http.StatusOK, listOf(list, toJSON))
}

// appendJSON appends l as encoding/json writes it, each item appended by
// appendItem: for answers too large to go through reflection (comments).
// TestListJSONAppend keeps the two in step.
func (l listJSON[T]) appendJSON(b []byte, appendItem func([]byte, T) []byte) []byte {
	b = append(b, `{"items":[`...)
	b = jsonappend.Each(b, len(l.Items), func(b []byte, i int) []byte { return appendItem(b, l.Items[i]) })
	b = append(b, `],"count":`...)
	b = strconv.AppendInt(b, int64(l.Count), 10)
	if l.Next != nil {
		b = append(b, `,"next":{"page":`...)
		b = jsonappend.String(b, l.Next.Page)
		b = append(b, '}')
	}
	return append(b, '}')
}
