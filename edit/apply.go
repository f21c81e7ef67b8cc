package edit

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
)

// Options are what Apply needs besides the batch.
type Options struct {
	Now     int64         // Unix microseconds, stamped on the pages touched
	NewID   func() string // ids for new pages and files
	Base    *content.Tree // the request's base, for revert_page without a revision
	Trees   map[string]*content.Tree
	AppHost string // links to this host are in-app
}

// Outcome kinds, as the reference names them.
const (
	CreatedPage = "created_page"
	UpdatedPage = "updated_page"
	DeletedPage = "deleted_page"
)

// Outcome is what a batch did to one page.
type Outcome struct {
	Kind   string
	PageID string
	Ref    string // the insert's ref, if any
}

// Result is the content after a batch and what the batch did.
type Result struct {
	Tree    *content.Tree
	Changes []Outcome       // one per affected page, in the order first touched
	Files   []*content.File // inserted files, in order
}

// RevisionsToLoad lists the revisions a batch's revert_page changes name,
// which the caller loads into Options.Trees.
func RevisionsToLoad(changes []Change) []string {
	var ids []string
	for _, c := range changes {
		if c.Op == OpRevertPage && c.Revision != "" && !slices.Contains(ids, c.Revision) {
			ids = append(ids, c.Revision)
		}
	}
	return ids
}

type applier struct {
	t        *content.Tree
	o        Options
	refs     map[string]string // page ref → id
	fileRefs map[string]string // file ref → id
	before   map[string]bool   // pages that existed before the batch; nil for a fork
	touched  []string          // page ids in first-touch order
	refOf    map[string]string
	bodies   map[string]bool // pages whose markdown the batch set
	files    []*content.File
}

// Apply applies changes to t, which it modifies, as one atomic batch: the
// first invalid change fails the whole batch. t may be a fork
// (content.Tree.Fork) of a shared tree: it changes pages only through the
// fork's methods, and then nothing it does walks the whole tree.
func Apply(t *content.Tree, changes []Change, o Options) (*Result, error) {
	if t.Pages == nil {
		t.Pages = map[string]*content.Page{}
	}
	if t.Files == nil {
		t.Files = map[string]*content.File{}
	}
	a := &applier{t: t, o: o, refs: map[string]string{}, fileRefs: map[string]string{},
		refOf: map[string]string{}, bodies: map[string]bool{}}
	if _, fork := t.Existed(""); !fork {
		a.before = map[string]bool{}
		for id := range t.Pages {
			a.before[id] = true
		}
	}
	if err := a.assignRefs(changes); err != nil {
		return nil, err
	}
	for i, c := range changes {
		var err error
		switch c.Op {
		case OpInsertPage:
			err = a.insert(c)
		case OpUpdatePage:
			err = a.update(c)
		case OpDeletePage:
			err = a.delete(c)
		case OpRevertPage:
			err = a.revert(c)
		case OpInsertFiles:
			err = a.insertFiles(c)
		}
		if err != nil {
			return nil, invalid("changes[%d].%v", i, err)
		}
	}
	a.resolveLinks()
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("edit: batch produced an invalid tree: %w", err)
	}
	return &Result{Tree: t, Changes: a.outcomes(), Files: a.files}, nil
}

// assignRefs gives every inserted page and file its id up front, so links
// to a ref resolve whatever the order of the changes.
func (a *applier) assignRefs(changes []Change) error {
	var taken map[string]bool // built for the first ref only
	seen := map[string]bool{}
	claim := func(i int, field, ref string) error {
		if seen[ref] {
			return invalid("changes[%d].%s: ref %q is used twice in the batch", i, field, ref)
		}
		if taken == nil {
			taken = existingPaths(a.t)
		}
		if taken[ref] || taken[strings.TrimSuffix(ref, ".md")] {
			return invalid("changes[%d].%s: ref %q is the path of an existing page", i, field, ref)
		}
		seen[ref] = true
		return nil
	}
	for i := range changes {
		c := &changes[i]
		switch c.Op {
		case OpInsertPage:
			c.Page = a.o.NewID()
			if c.Ref != "" {
				if err := claim(i, "ref", c.Ref); err != nil {
					return err
				}
				a.refs[c.Ref], a.refOf[c.Page] = c.Page, c.Ref
			}
		case OpInsertFiles:
			for j := range c.Files {
				f := &c.Files[j]
				if f.File == nil {
					return fmt.Errorf("edit: file %d of change %d was not stored", j, i)
				}
				if f.Ref != "" {
					if err := claim(i, fmt.Sprintf("files[%d].ref", j), f.Ref); err != nil {
						return err
					}
					a.fileRefs[f.Ref] = "" // the id is given when the change applies
				}
			}
		}
	}
	return nil
}

// existingPaths is every slug path and Git path (without ".md") of t.
func existingPaths(t *content.Tree) map[string]bool {
	out := map[string]bool{}
	for _, p := range content.GitPaths(t) {
		out[strings.TrimSuffix(p, ".md")] = true
	}
	var walk func(dir string, ids []string)
	walk = func(dir string, ids []string) {
		for _, id := range ids {
			sp := dir + t.Pages[id].Slug
			out[sp] = true
			walk(sp+"/", t.Pages[id].Children)
		}
	}
	walk("", t.Root)
	return out
}

func (a *applier) touch(id string) {
	if !slices.Contains(a.touched, id) {
		a.touched = append(a.touched, id)
	}
}

// pageID resolves a page given by id or by the ref of a page of the batch.
func (a *applier) pageID(field, idOrRef string) (string, error) {
	if _, ok := a.t.Pages[idOrRef]; ok {
		return idOrRef, nil
	}
	if id, ok := a.refs[idOrRef]; ok {
		if _, placed := a.t.Pages[id]; placed {
			return id, nil
		}
	}
	return "", fmt.Errorf("%s: no page %q in the change request", field, idOrRef)
}

func (a *applier) insert(c Change) error {
	parent := ""
	if c.IntoSet {
		var err error
		if parent, err = a.pageID("into", c.Into); err != nil {
			return err
		}
	}
	p := &content.Page{ID: c.Page, Kind: content.KindDocument, CreatedAt: a.o.Now, UpdatedAt: a.o.Now}
	if err := a.setMeta(p, c, parent); err != nil {
		return err
	}
	if p.Title == "" {
		p.Title = "Untitled"
	}
	if c.Slug == nil {
		p.Slug = a.freeSlug(parent, p.ID, quire.PageSlug(p.Title))
	}
	a.t.PutPage(p)
	if err := a.place(p.ID, parent, c.At, true); err != nil {
		a.t.RemovePage(p.ID)
		return err
	}
	a.touch(p.ID)
	return nil
}

func (a *applier) update(c Change) error {
	id, err := a.pageID("page", c.Page)
	if err != nil {
		return err
	}
	p := a.t.EditPage(id)
	parent, _ := a.t.Parent(id)
	newParent := parent
	if c.IntoSet {
		if newParent, err = a.pageID("into", c.Into); c.Into != "" && err != nil {
			return err
		}
		if c.Into == "" {
			newParent = ""
		}
		if newParent == id || slices.Contains(subtree(a.t, id), newParent) {
			return fmt.Errorf("into: a page cannot move into itself or one of its subpages")
		}
	}
	if p.Kind == content.KindGroup && c.Markdown != nil {
		return fmt.Errorf("document: page %q is a group and has no document", id)
	}
	if err := a.setMeta(p, c, newParent); err != nil {
		return err
	}
	if c.IntoSet || c.At != nil {
		if err := a.move(id, parent, newParent, c.At); err != nil {
			return err
		}
	}
	p.UpdatedAt = a.o.Now
	a.touch(id)
	return nil
}

// setMeta sets p's metadata from c; the document's front matter and leading
// heading win over the change's own fields.
func (a *applier) setMeta(p *content.Page, c Change, parent string) error {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setBool := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Title, c.Title)
	set(&p.Emoji, c.Emoji)
	set(&p.Icon, c.Icon)
	set(&p.Description, c.Description)
	set(&p.Condition, c.Condition)
	setBool(&p.Hidden, c.Hidden)
	setBool(&p.NoIndex, c.NoIndex)
	setBool(&p.NoRobotsIndex, c.NoRobotsIndex)
	if c.Markdown != nil {
		meta, body, err := render.ParsePage(*c.Markdown)
		if err != nil {
			return fmt.Errorf("document: %v", err)
		}
		p.Markdown = body
		a.bodies[p.ID] = true
		if meta.Title != "" {
			p.Title = meta.Title
		}
		for _, f := range []struct{ dst, v *string }{{&p.Description, &meta.Description}, {&p.Emoji, &meta.Emoji}, {&p.Icon, &meta.Icon}} {
			if *f.v != "" {
				*f.dst = *f.v
			}
		}
		setBool(&p.Hidden, meta.Hidden)
		setBool(&p.NoIndex, meta.NoIndex)
		setBool(&p.NoRobotsIndex, meta.NoRobotsIndex)
	}
	if utf8.RuneCountInString(p.Title) > MaxTitle {
		return fmt.Errorf("document: the title is longer than %d characters", MaxTitle)
	}
	if c.Slug != nil {
		if sib := a.siblingWithSlug(parent, p.ID, *c.Slug); sib != "" {
			return fmt.Errorf("slug: %q is already the slug of page %q in the same parent", *c.Slug, sib)
		}
		p.Slug = *c.Slug
	}
	return nil
}

func (a *applier) siblings(parent string) []string {
	if parent == "" {
		return a.t.Root
	}
	return a.t.Pages[parent].Children
}

func (a *applier) siblingWithSlug(parent, self, slug string) string {
	for _, id := range a.siblings(parent) {
		if id != self && a.t.Pages[id].Slug == slug {
			return id
		}
	}
	return ""
}

// freeSlug returns slug, or slug-2, slug-3… when a sibling has it.
func (a *applier) freeSlug(parent, self, slug string) string {
	return quire.FreeSlug(slug, MaxSlug, func(s string) bool { return a.siblingWithSlug(parent, self, s) != "" })
}

// place inserts id among parent's children at index at (the end when nil).
func (a *applier) place(id, parent string, at *int, _ bool) error {
	kids := a.siblings(parent)
	i := len(kids)
	if at != nil {
		if *at > len(kids) {
			return fmt.Errorf("at: %d is past the end (%d pages there)", *at, len(kids))
		}
		i = *at
	}
	kids = slices.Insert(slices.Clone(kids), i, id)
	if parent == "" {
		a.t.SetRoot(kids)
	} else {
		a.t.EditPage(parent).Children = kids
	}
	return nil
}

func (a *applier) unplace(id, parent string) int {
	kids := slices.Clone(a.siblings(parent))
	i := slices.Index(kids, id)
	kids = slices.Delete(kids, i, i+1)
	if parent == "" {
		a.t.SetRoot(kids)
	} else {
		a.t.EditPage(parent).Children = kids
	}
	return i
}

// move moves id from parent to newParent: to index at, else to the end of
// a new parent, else where it is.
func (a *applier) move(id, parent, newParent string, at *int) error {
	old := a.unplace(id, parent)
	if at == nil && parent == newParent {
		at = &old
	}
	if err := a.place(id, newParent, at, false); err != nil {
		return err
	}
	if newParent != parent {
		if sib := a.siblingWithSlug(newParent, id, a.t.Pages[id].Slug); sib != "" {
			a.t.EditPage(id).Slug = a.freeSlug(newParent, id, a.t.Pages[id].Slug)
		}
	}
	return nil
}

func subtree(t *content.Tree, id string) []string {
	out := []string{id}
	for _, c := range t.Pages[id].Children {
		out = append(out, subtree(t, c)...)
	}
	return out
}

func (a *applier) delete(c Change) error {
	id, err := a.pageID("page", c.Page)
	if err != nil {
		return err
	}
	parent, _ := a.t.Parent(id)
	a.unplace(id, parent)
	for _, d := range subtree(a.t, id) {
		a.t.RemovePage(d)
		a.touch(d)
	}
	return nil
}

// revert gives a page back its state in an earlier revision: metadata and
// document, or removal when it did not exist there.
func (a *applier) revert(c Change) error {
	target := a.o.Base
	if c.Revision != "" {
		target = a.o.Trees[c.Revision]
		if target == nil {
			return fmt.Errorf("revision: no revision %q in this space", c.Revision)
		}
	}
	old, existed := target.Pages[c.Page]
	_, exists := a.t.Pages[c.Page]
	switch {
	case !existed && !exists:
		return fmt.Errorf("page: no page %q in the change request or the revision", c.Page)
	case !existed:
		return a.delete(Change{Page: c.Page})
	case !exists:
		parent, _ := target.Parent(c.Page)
		if _, ok := a.t.Pages[parent]; !ok {
			parent = ""
		}
		p := *old
		p.Children = nil
		a.t.PutPage(&p)
		if sib := a.siblingWithSlug(parent, p.ID, p.Slug); sib != "" {
			p.Slug = a.freeSlug(parent, p.ID, p.Slug)
		}
		_ = a.place(p.ID, parent, nil, false)
	default:
		p := a.t.EditPage(c.Page)
		kids := p.Children
		*p = *old
		p.Children = kids
		p.UpdatedAt = a.o.Now
		if parent, _ := a.t.Parent(p.ID); a.siblingWithSlug(parent, p.ID, p.Slug) != "" {
			p.Slug = a.freeSlug(parent, p.ID, p.Slug)
		}
	}
	a.touch(c.Page)
	return nil
}

func (a *applier) insertFiles(c Change) error {
	for _, in := range c.Files {
		f := &content.File{ID: a.o.NewID(), Name: in.Name, ContentType: in.File.ContentType, Size: in.File.Size,
			Width: in.File.Width, Height: in.File.Height, Blob: in.File.Blob}
		a.t.PutFile(f)
		a.files = append(a.files, f)
		if in.Ref != "" {
			a.fileRefs[in.Ref] = f.ID
		}
	}
	return nil
}

// resolveLinks rewrites the links of the documents the batch set to stable
// /pages/<id> and /files/<id> targets, so they survive renames and moves
// and batch refs are never stored.
func (a *applier) resolveLinks() {
	if len(a.bodies) == 0 {
		return
	}
	files := make(map[string]string, len(a.t.Files))
	for id, f := range a.t.Files {
		files[id] = f.Name
	}
	r := &render.Resolver{Tree: a.t, PathsOf: func() map[string]string { return content.GitPaths(a.t) },
		Files: files, Refs: a.refs, FileRefs: a.fileRefs, AppHost: a.o.AppHost}
	for id := range a.bodies {
		p := a.t.EditPage(id)
		if p == nil {
			continue
		}
		repl := map[string]string{}
		for _, l := range render.Links(p.Markdown) {
			res := r.Resolve(id, l.Target)
			if res.Status != render.StatusOK {
				continue
			}
			var to string
			switch res.Kind {
			case render.KindPage:
				if _, ok := a.t.Pages[res.PageID]; !ok {
					continue // a ref to a page the batch deleted: broken
				}
				to = "/pages/" + res.PageID
			case render.KindFile:
				to = "/files/" + res.FileID
			default:
				continue
			}
			if _, frag, ok := strings.Cut(l.Target, "#"); ok && !strings.HasPrefix(l.Target, "ref:") {
				to += "#" + frag
			}
			if to != l.Target {
				repl[l.Target] = to
			}
		}
		p.Markdown = render.RewriteLinks(p.Markdown, repl)
	}
}

func (a *applier) outcomes() []Outcome {
	var out []Outcome
	for _, id := range a.touched {
		_, now := a.t.Pages[id]
		before := a.before[id]
		if a.before == nil {
			before, _ = a.t.Existed(id)
		}
		switch {
		case before && !now:
			out = append(out, Outcome{Kind: DeletedPage, PageID: id})
		case !before && now:
			out = append(out, Outcome{Kind: CreatedPage, PageID: id, Ref: a.refOf[id]})
		case now:
			out = append(out, Outcome{Kind: UpdatedPage, PageID: id})
		}
	}
	return out
}

func checkRef(s string) error {
	if s == "" {
		return fmt.Errorf("must not be empty")
	}
	if len(s) > 256 || strings.ContainsAny(s, "/?#\\ \t\n()<>") {
		return fmt.Errorf("must be at most 256 characters without /, ?, #, \\, brackets or spaces")
	}
	return nil
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
