package store

import (
	"context"
	"sort"
	"strings"
)

// update sets columns of one row; it does nothing when set is empty. Column
// names come from our code, never from clients.
func (tx *Tx) update(ctx context.Context, table, keyCol string, key any, set map[string]any) error {
	if len(set) == 0 {
		return nil
	}
	cols := make([]string, 0, len(set))
	for c := range set {
		cols = append(cols, c)
	}
	sort.Strings(cols)
	args := make([]any, 0, len(cols)+1)
	for i, c := range cols {
		args = append(args, set[c])
		cols[i] = c + " = ?"
	}
	_, err := tx.q.exec(ctx, "UPDATE "+table+" SET "+strings.Join(cols, ", ")+" WHERE "+keyCol+" = ?", append(args, key)...)
	return err
}
