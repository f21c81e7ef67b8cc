package api

import (
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// DefaultLimit is the page size of lists when the client gives no limit.
const DefaultLimit = 50

// MaxLimit is the largest page a client may ask for. Contract §8.
const MaxLimit = 1000

// pageParams reads the page and limit query parameters.
func pageParams(r *http.Request) (store.Page, error) {
	p := store.Page{Limit: DefaultLimit}
	q := r.URL.Query()
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

type listJSON struct {
	Items any       `json:"items"`
	Count int       `json:"count"`
	Next  *nextJSON `json:"next,omitempty"`
}

type nextJSON struct {
	Page string `json:"page"`
}

// writeList writes the items/count/next envelope of one page, converting each
// item with toJSON.
func writeList[T, J any](w http.ResponseWriter, list *store.List[T], toJSON func(T) J) error {
	items := make([]J, len(list.Items))
	for i, it := range list.Items {
		items[i] = toJSON(it)
	}
	out := listJSON{Items: items, Count: list.Count}
	if list.Next != nil {
		out.Next = &nextJSON{Page: list.Next.Encode()}
	}
	return writeJSON(w, http.StatusOK, out)
}
