package quire

import (
	"fmt"
	"slices"
	"testing"
)

// orderSibling names the i-th of the fuzzer's siblings: spaces and
// collections alternate by a bit of kinds, so the same id may exist as both.
func orderSibling(i int, kinds uint64) Sibling {
	kind := "space"
	if kinds>>(uint(i)%64)&1 == 1 {
		kind = "collection"
	}
	return Sibling{Kind: kind, ID: fmt.Sprintf("s%d", i%8)}
}

// orderCheck checks one Reorder call against the rules of Contract §2
// Position: every sibling exactly once, item right before or after its
// anchor (or last), the others in their old order; a missing anchor or the
// item as its own anchor is CodeInvalid and changes nothing.
func orderCheck(t *testing.T, siblings []Sibling, item Sibling, pos Position) []Sibling {
	t.Helper()
	got, err := Reorder(siblings, item, pos)
	others := slices.DeleteFunc(slices.Clone(siblings), func(s Sibling) bool { return s == item })
	anchor, offset := pos.Before, 0
	if anchor == nil {
		anchor, offset = pos.After, 1
	}
	if anchor != nil && (*anchor == item || !slices.Contains(others, *anchor)) {
		if ErrorCode(err) != CodeInvalid {
			t.Fatalf("Reorder(%v, %v, anchor %v): error %v, want CodeInvalid", siblings, item, *anchor, err)
		}
		return siblings
	}
	if err != nil {
		t.Fatalf("Reorder(%v, %v, %+v): %v", siblings, item, pos, err)
	}
	if len(got) != len(others)+1 {
		t.Fatalf("Reorder(%v, %v): %d items %v, want %d", siblings, item, len(got), got, len(others)+1)
	}
	seen := map[Sibling]int{}
	for _, s := range got {
		seen[s]++
	}
	for s, n := range seen {
		if n != 1 {
			t.Fatalf("Reorder(%v, %v): %v appears %d times in %v", siblings, item, s, n, got)
		}
	}
	at := slices.Index(got, item)
	rest := slices.Delete(slices.Clone(got), at, at+1)
	if !slices.Equal(rest, others) {
		t.Fatalf("Reorder(%v, %v): others are %v, want %v in their old order", siblings, item, rest, others)
	}
	switch {
	case anchor == nil && at != len(got)-1:
		t.Fatalf("Reorder(%v, %v, end): item at %d of %v, want last", siblings, item, at, got)
	case anchor != nil && (at+1-2*offset < 0 || at+1-2*offset >= len(got) || got[at+1-2*offset] != *anchor):
		t.Fatalf("Reorder(%v, %v, %+v): got %v, item not right beside its anchor", siblings, item, pos, got)
	}
	return got
}

// FuzzReorder runs random sequences of moves on a random sibling list. Each
// move is three bytes: the item (possibly one not yet among the siblings),
// the kind of position (end, before, after) and the anchor (possibly one that
// is missing, or the item itself).
func FuzzReorder(f *testing.F) {
	f.Add(uint8(3), uint64(0), []byte{0, 1, 2, 1, 2, 0, 2, 0, 0})
	f.Add(uint8(5), uint64(0b10101), []byte{4, 1, 4, 7, 2, 1, 9, 0, 0, 3, 2, 12})
	f.Add(uint8(0), uint64(1), []byte{0, 0, 0, 1, 1, 0})
	f.Add(uint8(8), ^uint64(0), []byte{0, 2, 7, 7, 1, 0, 3, 2, 3})
	f.Fuzz(func(t *testing.T, n uint8, kinds uint64, ops []byte) {
		// Ids repeat every 8 and kinds every 64, so keep distinct siblings only.
		var siblings []Sibling
		for i := range int(n % 12) {
			if s := orderSibling(i, kinds); !slices.Contains(siblings, s) {
				siblings = append(siblings, s)
			}
		}
		for len(ops) >= 3 {
			item := orderSibling(int(ops[0]%16), kinds)
			var pos Position
			anchor := orderSibling(int(ops[2]%16), kinds)
			switch ops[1] % 3 {
			case 1:
				pos.Before = &anchor
			case 2:
				pos.After = &anchor
			}
			siblings = orderCheck(t, siblings, item, pos)
			ops = ops[3:]
		}
	})
}

func TestReorderExamples(t *testing.T) {
	sp := func(id string) Sibling { return Sibling{Kind: "space", ID: id} }
	col := func(id string) Sibling { return Sibling{Kind: "collection", ID: id} }
	abc := []Sibling{sp("a"), col("b"), sp("c")}
	for _, tc := range []struct {
		name string
		item Sibling
		pos  Position
		want []Sibling
		err  string
	}{
		{"end", sp("a"), Position{}, []Sibling{col("b"), sp("c"), sp("a")}, ""},
		{"new at end", sp("d"), Position{}, []Sibling{sp("a"), col("b"), sp("c"), sp("d")}, ""},
		{"before first", sp("c"), Position{Before: &Sibling{"space", "a"}}, []Sibling{sp("c"), sp("a"), col("b")}, ""},
		{"after collection", sp("a"), Position{After: &Sibling{"collection", "b"}}, []Sibling{col("b"), sp("a"), sp("c")}, ""},
		{"after last", sp("a"), Position{After: &Sibling{"space", "c"}}, []Sibling{col("b"), sp("c"), sp("a")}, ""},
		{"same place", col("b"), Position{Before: &Sibling{"space", "c"}}, abc, ""},
		{"wrong kind", sp("a"), Position{Before: &Sibling{"collection", "c"}}, nil, `position.before: collection "c" is not in the target parent`},
		{"missing", sp("a"), Position{After: &Sibling{"space", "z"}}, nil, `position.after: space "z" is not in the target parent`},
		{"itself", sp("a"), Position{After: &Sibling{"space", "a"}}, nil, "position.after: cannot be the item being moved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Reorder(slices.Clone(abc), tc.item, tc.pos)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err || ErrorCode(err) != CodeInvalid {
					t.Fatalf("error %v, want %q (CodeInvalid)", err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestRenumber(t *testing.T) {
	sp := func(id string) Sibling { return Sibling{Kind: "space", ID: id} }
	col := func(id string) Sibling { return Sibling{Kind: "collection", ID: id} }
	at := func(s Sibling, n int64) Placement { return Placement{Sibling: s, Position: n} }
	a, b, c, x := sp("a"), col("b"), sp("c"), sp("x")
	for _, tt := range []struct {
		name      string
		siblings  []Sibling
		positions []int64
		item      Sibling
		pos       Position
		want      []Placement
		err       string
	}{
		{name: "new item at the end", siblings: []Sibling{a, b}, positions: []int64{1, 2}, item: x,
			want: []Placement{at(x, 3)}},
		{name: "into an empty parent", item: x, want: []Placement{at(x, 1)}},
		{name: "before the first", siblings: []Sibling{a, b}, positions: []int64{1, 2}, item: x, pos: Position{Before: &a},
			want: []Placement{at(x, 1), at(a, 2), at(b, 3)}},
		{name: "after the first", siblings: []Sibling{a, b, c}, positions: []int64{1, 2, 3}, item: x, pos: Position{After: &a},
			want: []Placement{at(x, 2), at(b, 3), at(c, 4)}},
		{name: "in place still writes the item", siblings: []Sibling{a, b, c}, positions: []int64{1, 2, 3}, item: b, pos: Position{After: &a},
			want: []Placement{at(b, 2)}},
		{name: "last to first", siblings: []Sibling{a, b, c}, positions: []int64{1, 2, 3}, item: c, pos: Position{Before: &a},
			want: []Placement{at(c, 1), at(a, 2), at(b, 3)}},
		{name: "to the end", siblings: []Sibling{a, b, c}, positions: []int64{1, 2, 3}, item: a,
			want: []Placement{at(b, 1), at(c, 2), at(a, 3)}},
		{name: "gaps are closed", siblings: []Sibling{a, b, c}, positions: []int64{2, 5, 9}, item: x, pos: Position{After: &c},
			want: []Placement{at(a, 1), at(b, 2), at(c, 3), at(x, 4)}},
		{name: "same id, other kind", siblings: []Sibling{sp("b"), b}, positions: []int64{1, 2}, item: sp("b"), pos: Position{After: &b},
			want: []Placement{at(b, 1), at(sp("b"), 2)}},
		{name: "anchor is the item", siblings: []Sibling{a, b}, positions: []int64{1, 2}, item: a, pos: Position{Before: &a},
			err: "position.before: cannot be the item being moved"},
		{name: "anchor elsewhere", siblings: []Sibling{a}, positions: []int64{1}, item: x, pos: Position{After: &c},
			err: `position.after: space "c" is not in the target parent`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Renumber(tt.siblings, tt.positions, tt.item, tt.pos)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err || ErrorCode(err) != CodeInvalid {
					t.Fatalf("err = %v, want %q (invalid)", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Renumber = %v, want %v", got, tt.want)
			}
		})
	}
}
