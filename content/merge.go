package content

import (
	"slices"
	"sort"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// Conflict is a change that both sides made differently; the merge cannot
// choose between them.
type Conflict struct {
	PageID string // the conflicting page, "" for a file
	FileID string // the conflicting file, "" for a page
	Title  string // the page's title or the file's name
	Reason string
}

// Merge three-way merges ours and theirs, both descended from base, by id for
// pages and files and line by line for markdown. A change on one side only is
// taken; the same change on both sides is taken once; different changes of
// the same thing are a conflict. On conflict the returned tree is nil.
// The inputs must be valid trees and are not modified.
func Merge(base, ours, theirs *Tree) (*Tree, []Conflict) {
	return MergeResolving(base, ours, theirs, nil)
}

// Keep says which version a Resolution keeps.
type Keep int

// The versions a resolution may keep.
const (
	KeepOurs   Keep = iota + 1 // ours, whole; its absence when ours deleted it
	KeepTheirs                 // theirs, whole; its absence when theirs deleted it
	KeepEdited                 // pages only: the given title and markdown
)

// Resolution decides a page or file in conflict. KeepEdited keeps the page
// merged as usual, taking theirs where the sides disagree (its version when
// one side deleted it), with Markdown as its body and Title, when not "",
// as its title.
type Resolution struct {
	Keep     Keep
	Title    string
	Markdown string
}

// MergeResolving is Merge with the conflicts of some pages and files
// decided beforehand: resolve maps a page's or file's id to the version to
// keep, whatever the sides did to it. Conflicts it does not decide (and
// KeepEdited for a file) still refuse the merge.
func MergeResolving(base, ours, theirs *Tree, resolve map[string]Resolution) (*Tree, []Conflict) {
	m := merger{
		base: base, ours: ours, theirs: theirs, resolve: resolve,
		pb: base.parents(), po: ours.parents(), pt: theirs.parents(),
		out:    &Tree{Pages: map[string]*Page{}},
		parent: map[string]string{},
	}
	ids := make([]string, 0, len(ours.Pages)+len(theirs.Pages))
	for _, t := range []*Tree{base, ours, theirs} {
		for id := range t.Pages {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		m.page(id)
	}
	m.files()
	if len(m.conflicts) > 0 {
		return nil, m.conflicts
	}
	m.checkPlacement(ids)
	if len(m.conflicts) > 0 {
		return nil, m.conflicts
	}
	m.order()
	if err := m.out.Validate(); err != nil {
		// Unreachable for valid inputs; never hand back a broken tree.
		return nil, []Conflict{{Reason: "merge produced an invalid tree: " + err.Error()}}
	}
	return m.out, nil
}

type merger struct {
	base, ours, theirs *Tree
	pb, po, pt         map[string]string // parent of each placed page
	out                *Tree
	parent             map[string]string // merged parent of each kept page
	conflicts          []Conflict
	resolve            map[string]Resolution
}

func (m *merger) conflict(id, reason string) {
	title := ""
	for _, t := range []*Tree{m.ours, m.theirs, m.base} {
		if p, ok := t.Pages[id]; ok {
			title = p.Title
			break
		}
	}
	m.conflicts = append(m.conflicts, Conflict{PageID: id, Title: title, Reason: reason})
}

// page merges one page's fields and parent into m.out, or leaves it out.
func (m *merger) page(id string) {
	b, inB := m.base.Pages[id]
	o, inO := m.ours.Pages[id]
	t, inT := m.theirs.Pages[id]
	r, resolved := m.resolve[id]
	if m.pageOnOneSide(id, [3]*Page{b, o, t}, [3]bool{inB, inO, inT}, r, resolved) {
		return
	}
	// In both sides: in base too, or added on both with the same id.
	var bp, bParent = &Page{ID: id}, ""
	bPlaced := false
	if inB {
		bp, bParent, bPlaced = b, m.pb[id], true
	}
	p := m.pageFields(id, bp, o, t)
	edited := resolved && r.Keep == KeepEdited
	md, ok := MergeText(bp.Markdown, o.Markdown, t.Markdown)
	if !ok && !edited {
		m.conflict(id, "markdown edited differently on both sides")
	}
	p.Markdown = md
	po, pt := m.po[id], m.pt[id]
	parent := po
	switch {
	case po == pt:
	case bPlaced && po == bParent:
		parent = pt
	case bPlaced && pt == bParent:
	case edited:
		parent = pt
	default:
		m.conflict(id, "moved to different places on both sides")
	}
	if edited {
		p = r.edited(p)
	}
	m.keep(p, parent)
}

// pageOnOneSide merges page id when a resolution decides it or it is
// missing from a side (deleted or added), and reports whether it did; pages
// and in hold the base's, ours and theirs, and whether each side has it.
func (m *merger) pageOnOneSide(id string, pages [3]*Page, in [3]bool, r Resolution, resolved bool) bool {
	b, o, t := pages[0], pages[1], pages[2]
	inB, inO, inT := in[0], in[1], in[2]
	switch {
	case resolved && r.Keep == KeepOurs:
		if inO {
			m.keep(o, m.po[id])
		}
	case resolved && r.Keep == KeepTheirs:
		if inT {
			m.keep(t, m.pt[id])
		}
	case resolved && r.Keep == KeepEdited && inO != inT: // deleted on one side
		p, parent := o, m.po[id]
		if inT {
			p, parent = t, m.pt[id]
		}
		m.keep(r.edited(p), parent)
	case !inO && !inT: // deleted on both sides
	case inB && !inT: // deleted on theirs
		if changed(b, m.pb[id], o, m.po[id]) {
			m.conflict(id, "deleted on one side, edited on the other")
		}
	case inB && !inO: // deleted on ours
		if changed(b, m.pb[id], t, m.pt[id]) {
			m.conflict(id, "deleted on one side, edited on the other")
		}
	case !inB && !inT: // added on ours
		m.keep(o, m.po[id])
	case !inB && !inO: // added on theirs
		m.keep(t, m.pt[id])
	default:
		return false
	}
	return true
}

// pageFields merges the fields of page id other than its markdown and
// place, as base bp, ours o and theirs t hold them.
func (m *merger) pageFields(id string, bp, o, t *Page) *Page {
	p := &Page{ID: id}
	mergeField(m, id, "title", &p.Title, bp.Title, o.Title, t.Title)
	mergeField(m, id, "slug", &p.Slug, bp.Slug, o.Slug, t.Slug)
	mergeField(m, id, "emoji", &p.Emoji, bp.Emoji, o.Emoji, t.Emoji)
	mergeField(m, id, "icon", &p.Icon, bp.Icon, o.Icon, t.Icon)
	mergeField(m, id, "description", &p.Description, bp.Description, o.Description, t.Description)
	mergeField(m, id, "condition", &p.Condition, bp.Condition, o.Condition, t.Condition)
	mergeField(m, id, "hidden", &p.Hidden, bp.Hidden, o.Hidden, t.Hidden)
	mergeField(m, id, "noIndex", &p.NoIndex, bp.NoIndex, o.NoIndex, t.NoIndex)
	mergeField(m, id, "noRobotsIndex", &p.NoRobotsIndex, bp.NoRobotsIndex, o.NoRobotsIndex, t.NoRobotsIndex)
	mergeField(m, id, "kind", &p.Kind, bp.Kind, o.Kind, t.Kind)
	// Timestamps never conflict: creation keeps the base's (or the earliest
	// known) time, and the merged page was last edited when either side was.
	p.CreatedAt = bp.CreatedAt
	if p.CreatedAt == 0 {
		p.CreatedAt = earliest(o.CreatedAt, t.CreatedAt)
	}
	p.UpdatedAt = max(o.UpdatedAt, t.UpdatedAt)
	return p
}

// edited returns a copy of p with r's markdown and title.
func (r Resolution) edited(p *Page) *Page {
	q := *p
	q.Markdown = r.Markdown
	if r.Title != "" {
		q.Title = r.Title
	}
	return &q
}

func (m *merger) keep(p *Page, parent string) {
	q := *p
	q.Children = nil
	m.out.Pages[p.ID] = &q
	m.parent[p.ID] = parent
}

// changed reports whether a page was edited or moved between base and side.
// Timestamps alone are not an edit: a deletion wins over a mere touch.
func changed(b *Page, bParent string, s *Page, sParent string) bool {
	return b.Title != s.Title || b.Slug != s.Slug || b.Emoji != s.Emoji ||
		b.Icon != s.Icon || b.Description != s.Description ||
		b.Condition != s.Condition || b.Hidden != s.Hidden ||
		b.NoIndex != s.NoIndex || b.NoRobotsIndex != s.NoRobotsIndex ||
		b.Kind != s.Kind || b.Markdown != s.Markdown || bParent != sParent
}

// mergeField merges one page field three-way into dst, recording a conflict
// under name when the sides disagree.
// A page resolved as KeepEdited takes theirs instead.
func mergeField[T comparable](m *merger, id, name string, dst *T, b, o, t T) {
	v, ok := merge3(b, o, t)
	if !ok {
		if m.resolve[id].Keep == KeepEdited {
			v = t
		} else {
			m.conflict(id, name+" changed differently on both sides")
		}
	}
	*dst = v
}

// earliest returns the smaller non-zero time, 0 when both are unknown.
func earliest(a, b int64) int64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}

// merge3 merges one value three-way.
func merge3[T comparable](b, o, t T) (T, bool) {
	switch {
	case o == t, t == b:
		return o, true
	case o == b:
		return t, true
	}
	return o, false
}

// optFile is a file or its absence, so that merge3 covers additions and
// deletions as well as edits.
type optFile struct {
	File
	ok bool
}

func fileIn(t *Tree, id string) optFile {
	if f := t.Files[id]; f != nil {
		return optFile{*f, true}
	}
	return optFile{}
}

// files merges the files by id. A file is taken whole from one side: it has
// no parts that could merge separately.
func (m *merger) files() {
	m.out.Files = map[string]*File{}
	var ids []string
	for _, t := range []*Tree{m.base, m.ours, m.theirs} {
		for id := range t.Files {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range slices.Compact(ids) {
		b, o, t := fileIn(m.base, id), fileIn(m.ours, id), fileIn(m.theirs, id)
		v, ok := merge3(b, o, t)
		switch m.resolve[id].Keep {
		case KeepOurs:
			v, ok = o, true
		case KeepTheirs:
			v, ok = t, true
		}
		if ok {
			if v.ok {
				m.out.Files[id] = &v.File
			}
			continue
		}
		reason := "changed differently on both sides"
		switch {
		case !o.ok || !t.ok:
			reason = "deleted on one side, edited on the other"
		case !b.ok:
			reason = "added differently on both sides"
		}
		name := o.Name
		if !o.ok {
			name = t.Name
		}
		m.conflicts = append(m.conflicts, Conflict{FileID: id, Title: name, Reason: "file " + reason})
	}
}

// checkPlacement makes sure every kept page hangs under a kept page and that
// moves on both sides did not form a cycle.
func (m *merger) checkPlacement(ids []string) {
	for _, id := range ids {
		parent, ok := m.parent[id]
		if !ok || parent == "" {
			continue
		}
		if _, ok := m.out.Pages[parent]; !ok {
			m.conflict(id, "placed under a page deleted on the other side")
		}
	}
	if len(m.conflicts) > 0 {
		return
	}
	state := map[string]int{} // 1 visiting, 2 done
	for _, id := range ids {
		if _, ok := m.parent[id]; !ok || state[id] == 2 {
			continue
		}
		var path []string
		cur := id
		for cur != "" && state[cur] == 0 {
			state[cur] = 1
			path = append(path, cur)
			cur = m.parent[cur]
		}
		if cur != "" && state[cur] == 1 {
			m.conflict(cur, "moved on both sides into each other")
		}
		for _, p := range path {
			state[p] = 2
		}
	}
}

// order sets Root and every kept page's Children.
func (m *merger) order() {
	under := map[string][]string{}
	for id, parent := range m.parent {
		under[parent] = append(under[parent], id)
	}
	for parent, kids := range under {
		list := m.orderChildren(parent, kids)
		if parent == "" {
			m.out.Root = list
		} else {
			m.out.Pages[parent].Children = list
		}
	}
}

// orderChildren orders the pages kids whose merged parent is parent. It starts
// from the side that reordered them relative to base (ours when both or
// neither did), then inserts the pages that only the other side placed there
// right after their nearest preceding sibling on that side (ours first when
// both sides inserted at the same place).
func (m *merger) orderChildren(parent string, kids []string) []string {
	want := make(map[string]bool, len(kids))
	for _, k := range kids {
		want[k] = true
	}
	bl, _ := m.base.children(parent)
	ol, _ := m.ours.children(parent)
	tl, _ := m.theirs.children(parent)
	first, other := ol, tl
	if !reordered(bl, ol) && reordered(bl, tl) {
		first, other = tl, ol
	}
	inBase := make(map[string]bool, len(bl))
	for _, id := range bl {
		inBase[id] = true
	}
	out := make([]string, 0, len(kids))
	present := map[string]bool{}
	for _, id := range first {
		if want[id] {
			out = append(out, id)
			present[id] = true
		}
	}
	prev := ""
	for _, id := range other {
		if want[id] && !present[id] {
			at := 0
			if prev != "" {
				at = slices.Index(out, prev) + 1
			}
			// The first side's own insertions at the same place come first.
			for at < len(out) && !inBase[out[at]] && slices.Contains(first, out[at]) {
				at++
			}
			out = slices.Insert(out, at, id)
			present[id] = true
		}
		if present[id] {
			prev = id
		}
	}
	if len(out) != len(kids) { // safety net: never lose a page
		slices.Sort(kids)
		for _, id := range kids {
			if !present[id] {
				out = append(out, id)
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// reordered reports whether the pages common to base and side are in a
// different relative order on side.
func reordered(base, side []string) bool {
	in := make(map[string]bool, len(side))
	for _, id := range side {
		in[id] = true
	}
	inBase := make(map[string]bool, len(base))
	var b []string
	for _, id := range base {
		inBase[id] = true
		if in[id] {
			b = append(b, id)
		}
	}
	i := 0
	for _, id := range side {
		if inBase[id] {
			if b[i] != id {
				return true
			}
			i++
		}
	}
	return false
}

// MergeText three-way merges markdown line by line (diff3): edits of one side
// are taken, disjoint edits of both sides are both applied, and overlapping
// different edits are a conflict (ok false, text is ours).
func MergeText(base, ours, theirs string) (string, bool) {
	switch {
	case ours == theirs, theirs == base:
		return ours, true
	case ours == base:
		return theirs, true
	}
	b, o, t := splitLines(base), splitLines(ours), splitLines(theirs)
	mo, mt := match(b, o), match(b, t)
	var out strings.Builder
	i, j, k := 0, 0, 0
	for i < len(b) || j < len(o) || k < len(t) {
		n := 0
		for i+n < len(b) && mo[i+n] == j+n && mt[i+n] == k+n {
			n++
		}
		if n > 0 {
			for _, l := range b[i : i+n] {
				out.WriteString(l)
			}
			i, j, k = i+n, j+n, k+n
			continue
		}
		// An unstable chunk, up to the next base line matched on both sides.
		i2, j2, k2 := len(b), len(o), len(t)
		for x := i; x < len(b); x++ {
			if mo[x] >= 0 && mt[x] >= 0 {
				i2, j2, k2 = x, mo[x], mt[x]
				break
			}
		}
		cb, co, ct := b[i:i2], o[j:j2], t[k:k2]
		switch {
		case slices.Equal(co, cb), slices.Equal(co, ct):
			co = ct
		case slices.Equal(ct, cb):
		default:
			return ours, false
		}
		for _, l := range co {
			out.WriteString(l)
		}
		i, j, k = i2, j2, k2
	}
	return out.String(), true
}

// splitLines splits s after each newline, keeping them, so joining the lines
// gives back s exactly.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// match returns, for each line of a, the index of the line of b it is paired
// with in a shortest line diff (Myers, from go-diff), or -1.
func match(a, b []string) []int {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // no deadline: the same inputs always merge the same way
	ra, rb, _ := dmp.DiffLinesToRunes(strings.Join(a, ""), strings.Join(b, ""))
	i, j := 0, 0
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		n := len([]rune(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for x := range n {
				m[i+x] = j + x
			}
			i, j = i+n, j+n
		case diffmatchpatch.DiffDelete:
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		}
	}
	return m
}
