package api

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire/store"
)

// listPage answers the page that r asks for of what list finds, each item as
// toJSON shapes it. The page parameters are checked first; list may check
// further ones, and set what toJSON needs, before it reads the store.
func listPage[T, J any](w http.ResponseWriter, r *http.Request, list func(ctx context.Context, p store.Page) (*store.List[T], error), toJSON func(T) J) error {
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	items, err := list(r.Context(), p)
	if err != nil {
		return err
	}
	return writeList(w, items, toJSON)
}
