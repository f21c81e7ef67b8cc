// Package content holds the pure model of a space's content: page trees,
// content hashing, the three-way merge and Git paths. It does no I/O.
package content

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
)

// Page kinds.
const (
	KindDocument = "document"
	KindGroup    = "group"
)

// Page is one page of a revision's tree.
type Page struct {
	ID            string
	Title         string
	Slug          string
	Emoji         string
	Icon          string
	Description   string
	Condition     string // adaptive-content condition, "" for none
	Hidden        bool
	NoIndex       bool
	NoRobotsIndex bool
	Kind          string   // KindDocument or KindGroup
	Markdown      string   // the body, without front matter or title heading
	Children      []string // ordered child page ids
	CreatedAt     int64    // Unix microseconds; 0 when unknown
	UpdatedAt     int64    // Unix microseconds of the last edit; 0 when unknown
}

// File is one uploaded file of a revision. Its bytes live in the blob store
// under Blob, their hex SHA-256.
type File struct {
	ID          string
	Name        string
	ContentType string
	Size        int64
	Width       int // image dimensions; 0 when not an image
	Height      int
	Blob        string
}

// Tree is a revision's content: its page tree and its files.
type Tree struct {
	Pages map[string]*Page
	Root  []string // ordered top-level page ids
	Files map[string]*File

	enc  *encoding  // for a stored tree: its encoding (see encoding.go)
	fork *forkState // for a fork not stored yet: its base and changes
}

// Clone returns a deep copy of t.
func (t *Tree) Clone() *Tree {
	if t == nil {
		return nil
	}
	c := &Tree{Pages: make(map[string]*Page, len(t.Pages)), Root: slices.Clone(t.Root)}
	if t.Files != nil {
		c.Files = make(map[string]*File, len(t.Files))
		for id, f := range t.Files {
			g := *f
			c.Files[id] = &g
		}
	}
	for id, p := range t.Pages {
		if p == nil {
			c.Pages[id] = nil
			continue
		}
		q := *p
		q.Children = slices.Clone(p.Children)
		c.Pages[id] = &q
	}
	return c
}

// Parent returns the id of the page whose children include id, "" for a
// top-level page; ok is false when id is not placed in the tree.
func (t *Tree) Parent(id string) (parentID string, ok bool) {
	if t.incremental() {
		return t.forkParent(id, t.forkParents())
	}
	if t.enc != nil { // a stored tree knows its parents
		e, ok := t.enc.pages.get(id)
		return e.parent, ok
	}
	if slices.Contains(t.Root, id) {
		return "", true
	}
	for pid, p := range t.Pages {
		if p != nil && slices.Contains(p.Children, id) {
			return pid, true
		}
	}
	return "", false
}

// parents maps every placed page id to its parent id ("" at the top level).
func (t *Tree) parents() map[string]string {
	m := make(map[string]string, len(t.Pages))
	for _, id := range t.Root {
		m[id] = ""
	}
	for pid, p := range t.Pages {
		if p == nil {
			continue
		}
		for _, c := range p.Children {
			m[c] = pid
		}
	}
	return m
}

// children returns the ordered children of parent ("" for the top level),
// and false when parent is not a page of t.
func (t *Tree) children(parent string) ([]string, bool) {
	if parent == "" {
		return t.Root, true
	}
	p, ok := t.Pages[parent]
	if !ok || p == nil {
		return nil, false
	}
	return p.Children, true
}

// Validate reports whether t is a well-formed tree: every page is keyed by
// its id, every id in Root and Children names a page, every page is placed
// exactly once, and every page is reachable from Root (so there is no cycle).
func (t *Tree) Validate() error {
	if t == nil {
		return fmt.Errorf("nil tree")
	}
	if t.incremental() {
		return t.validateFork()
	}
	for id, p := range t.Pages {
		if p == nil {
			return fmt.Errorf("page %q is nil", id)
		}
		if p.ID != id {
			return fmt.Errorf("page %q has id %q", id, p.ID)
		}
		if p.Kind != KindDocument && p.Kind != KindGroup {
			return fmt.Errorf("page %q has kind %q", id, p.Kind)
		}
	}
	placed := make(map[string]bool, len(t.Pages))
	place := func(id, where string) error {
		if _, ok := t.Pages[id]; !ok {
			return fmt.Errorf("%s lists missing page %q", where, id)
		}
		if placed[id] {
			return fmt.Errorf("page %q is placed more than once", id)
		}
		placed[id] = true
		return nil
	}
	for _, id := range t.Root {
		if err := place(id, "root"); err != nil {
			return err
		}
	}
	for pid, p := range t.Pages {
		for _, c := range p.Children {
			if err := place(c, fmt.Sprintf("page %q", pid)); err != nil {
				return err
			}
		}
	}
	if len(placed) != len(t.Pages) {
		for id := range t.Pages {
			if !placed[id] {
				return fmt.Errorf("page %q is not placed", id)
			}
		}
	}
	// Every page placed once: reachability from Root rules out cycles.
	reached := 0
	stack := slices.Clone(t.Root)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		reached++
		stack = append(stack, t.Pages[id].Children...)
	}
	if reached != len(t.Pages) {
		return fmt.Errorf("pages form a cycle: %d of %d reachable from the root", reached, len(t.Pages))
	}
	return nil
}

// Hash returns the hex SHA-256 of markdown, the key of content addressing.
func Hash(markdown string) string {
	sum := sha256.Sum256([]byte(markdown))
	return hex.EncodeToString(sum[:])
}

// Equal reports whether t and u hold the same content: pages, their order
// and files (a nil list or map equals an empty one). What a tree remembers
// of its storage is not content; go-cmp compares trees with this method.
func (t *Tree) Equal(u *Tree) bool {
	if t == nil || u == nil {
		return t == u
	}
	if len(t.Pages) != len(u.Pages) || len(t.Files) != len(u.Files) || !slices.Equal(t.Root, u.Root) {
		return false
	}
	for id, p := range t.Pages {
		q, ok := u.Pages[id]
		if !ok || (p == nil) != (q == nil) {
			return false
		}
		if p != nil && (!slices.Equal(p.Children, q.Children) || !samePageFields(*p, *q)) {
			return false
		}
	}
	for id, f := range t.Files {
		g, ok := u.Files[id]
		if !ok || (f == nil) != (g == nil) || (f != nil && *f != *g) {
			return false
		}
	}
	return true
}

func samePageFields(p, q Page) bool {
	p.Children, q.Children = nil, nil
	return reflect.DeepEqual(p, q)
}
