package store_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/store"
)

// pages walks every page of a list of n items, limit at a time, as page
// cuts them, and returns the pages' items and counts.
func pages(t *testing.T, n, limit int, page func(p store.Page) *store.List[int]) (items [][]int, counts []int) {
	t.Helper()
	p := store.Page{Limit: limit}
	for range n + 1 {
		list := page(p)
		items, counts = append(items, list.Items), append(counts, list.Count)
		if list.Next == nil {
			return items, counts
		}
		p.After = list.Next
	}
	t.Fatalf("more pages than items")
	return nil, nil
}

// TestPagesInMemory: each way of paging in memory walks the items once, in
// order, whatever the limit.
func TestPagesInMemory(t *testing.T) {
	t.Parallel()
	items := []int{1, 2, 3, 4, 5}
	byKey := func(p store.Page) *store.List[int] {
		return store.PageOf(items, p, func(i int) store.Cursor { return store.Cursor{Str: "k", ID: strconv.Itoa(i)} })
	}
	byPosition := func(p store.Page) *store.List[int] { return store.PageByPosition(items, p) }
	byRank := func(p store.Page) *store.List[int] {
		list, _ := store.PageInOrder(items, p, strconv.Itoa)
		return list
	}
	for name, page := range map[string]func(store.Page) *store.List[int]{"PageOf": byKey, "PageByPosition": byPosition, "PageInOrder": byRank} {
		for _, tt := range []struct {
			limit int
			want  [][]int
		}{
			{2, [][]int{{1, 2}, {3, 4}, {5}}},
			{5, [][]int{{1, 2, 3, 4, 5}}},
			{9, [][]int{{1, 2, 3, 4, 5}}},
		} {
			got, counts := pages(t, len(items), tt.limit, page)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s, limit %d: (-want +got):\n%s", name, tt.limit, diff)
			}
			for _, c := range counts {
				if c != len(items) {
					t.Errorf("%s, limit %d: count %d, want %d", name, tt.limit, c, len(items))
				}
			}
		}
	}
}

// TestPageInOrder: a page starts after the item its cursor names, wherever
// it now ranks, or at the cursor's index when it dropped out.
func TestPageInOrder(t *testing.T) {
	t.Parallel()
	items := []string{"a", "b", "c", "d"}
	id := func(s string) string { return s }
	tests := []struct {
		after     store.Cursor
		want      []string
		wantStart int
	}{
		{store.Cursor{Num: 2, ID: "b"}, []string{"c", "d"}, 2},
		{store.Cursor{Num: 2, ID: "a"}, []string{"b", "c"}, 1}, // moved up
		{store.Cursor{Num: 3, ID: "x"}, []string{"d"}, 3},      // dropped out
		{store.Cursor{Num: 9, ID: "x"}, []string{}, 4},
		{store.Cursor{Num: -1, ID: "x"}, []string{"a", "b"}, 0},
	}
	for _, tt := range tests {
		list, start := store.PageInOrder(items, store.Page{After: &tt.after, Limit: 2}, id)
		if diff := cmp.Diff(tt.want, list.Items); diff != "" || start != tt.wantStart {
			t.Errorf("after %+v: start %d, want %d; (-want +got):\n%s", tt.after, start, tt.wantStart, diff)
		}
	}
}
