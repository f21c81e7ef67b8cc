package quire

// Sibling names a space or a collection among the children of one parent.
type Sibling struct {
	Kind string // "space" or "collection"
	ID   string
}

// Position places an item before or after a sibling; with neither it goes to
// the end. Contract §2 Position.
type Position struct {
	Before *Sibling
	After  *Sibling
}

// Reorder returns siblings with item placed as pos says. item is first taken
// out of siblings if it is there. An anchor that is not among the other
// siblings is CodeInvalid naming field ("position.before" or "position.after").
func Reorder(siblings []Sibling, item Sibling, pos Position) ([]Sibling, error) {
	out := make([]Sibling, 0, len(siblings)+1)
	for _, s := range siblings {
		if s != item {
			out = append(out, s)
		}
	}
	anchor, field, offset := pos.Before, "position.before", 0
	if anchor == nil {
		anchor, field, offset = pos.After, "position.after", 1
	}
	if anchor == nil {
		return append(out, item), nil
	}
	if *anchor == item {
		return nil, Errorf(CodeInvalid, "%s: cannot be the item being moved", field)
	}
	for i, s := range out {
		if s == *anchor {
			at := i + offset
			out = append(out[:at], append([]Sibling{item}, out[at:]...)...)
			return out, nil
		}
	}
	return nil, Errorf(CodeInvalid, "%s: %s %q is not in the target parent", field, anchor.Kind, anchor.ID)
}

// Placement is the position to write for one sibling, counted from 1.
type Placement struct {
	Sibling
	Position int64
}

// Renumber places item among siblings as pos says (see Reorder) and numbers
// them 1, 2, … in their new order. positions holds the siblings' current
// positions, index for index. It returns, in the new order, the placements
// to write: the item's always (its parent may change with it), another
// sibling's only when its number changes.
func Renumber(siblings []Sibling, positions []int64, item Sibling, pos Position) ([]Placement, error) {
	order, err := Reorder(siblings, item, pos)
	if err != nil {
		return nil, err
	}
	old := make(map[Sibling]int64, len(siblings))
	for i, s := range siblings {
		old[s] = positions[i]
	}
	var out []Placement
	for i, s := range order {
		want := int64(i + 1)
		if p, ok := old[s]; ok && p == want && s != item {
			continue
		}
		out = append(out, Placement{Sibling: s, Position: want})
	}
	return out, nil
}
