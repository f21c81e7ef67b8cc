// Package revision reads revisions of spaces: a Reader holds the store and
// the bounded caches of what reads derive from content (indexes of trees,
// documents, search sections), and opens a View of a space at a revision.
// The API, the published sites and the web app read content through it,
// so they read it the same way.
//
// Trees are immutable and named by their root hash, so everything cached
// here is keyed by a root or by the text it was derived from and never goes
// stale: a commit makes a new root rather than invalidating an old one, and
// the least recently used entries make room. The one exception is what a
// published site shows (PublishedSite, PublishedStructure, and answers
// about it): keyed by the store's commit count and kept at most
// PublishedTTL. The API's answers of a view are built here too, in wire's
// shapes (answer_*.go: pages, page lists, revisions, changes, links, files,
// comments), and kept encoded (answers.go), so that the API only resolves,
// authorizes and writes them, and keeps no cache of its own. What is not derived from stored
// data (a model's suggested questions, kept by package ask) is cached by its
// owner, not here.
package revision

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
)

// Reader reads revisions from a store; it is safe for concurrent use.
type Reader struct {
	db        *store.DB
	appHost   string
	infos     *lru.Cache[string, *treeInfo]       // derived data of trees, by root
	documents *lru.Cache[string, json.RawMessage] // JSON documents of pages and comment bodies; read-only
	sections  *lru.Cache[sectionsKey, []search.WordSection]
	ranked    *lru.Cache[string, []Ranked] // search results, by space, root and terms
	matched   *lru.Cache[string, matched]  // what the index last found, by space and terms
	snippets  *lru.Cache[snippetKey, string]
	scores    *lru.Cache[scoreKey, []float64]   // the scores of a page's sections, by its text (textKey) and the terms
	words     *lru.Cache[string, *indexedWords] // the words scores are counted on, by the page's text (textKey)

	sites      *lru.Cache[string, cachedSite]      // published site headers, by id
	structures *lru.Cache[string, cachedStructure] // published site structures, by site id
	published  *lru.Cache[string, publishedAnswer] // encoded answers about published sites (published.go)

	answers, lists *Answers                            // encoded answers of reads (answers.go)
	runs           *lru.Cache[[sha256.Size]byte, *Run] // encoded runs of pages of page lists

	now func() time.Time
}

// New returns a Reader of db. appHost is the host of the app itself
// ("quire.example.com", with a port if any, "" for none): links to it
// resolve as links within the app.
func New(db *store.DB, appHost string) *Reader {
	return &Reader{
		db:        db,
		appHost:   appHost,
		infos:     lru.New[string, *treeInfo]("revision.infos"),
		documents: lru.New[string, json.RawMessage]("revision.documents"),
		sections:  lru.New[sectionsKey, []search.WordSection]("revision.sections"),
		ranked:    lru.New[string, []Ranked]("revision.ranked"),
		matched:   lru.New[string, matched]("revision.matched"),
		snippets:  lru.New[snippetKey, string]("revision.snippets"),
		scores:    lru.New[scoreKey, []float64]("revision.scores"),
		words:     lru.New[string, *indexedWords]("revision.words"),

		sites:      lru.New[string, cachedSite]("revision.sites"),
		structures: lru.New[string, cachedStructure]("revision.structures"),
		published:  lru.New[string, publishedAnswer]("revision.published"),

		answers: newAnswers("revision.answers"),
		lists:   newAnswers("revision.lists"),
		runs:    lru.New[[sha256.Size]byte, *Run]("revision.runs"),

		now: time.Now,
	}
}

// View is one revision's content as a caller reads it: a space's current
// revision, a change request's, or any revision by id. Its tree is shared:
// never modify it.
type View struct {
	Space         *quire.Space
	Revision      *store.Revision
	Tree          *content.Tree
	ChangeRequest *quire.ChangeRequest // the change request read, or nil
	r             *Reader
}

// Open reads space sp at revision revID; cr, when not nil, is the change
// request whose content that is. A revision not in the space is
// quire.CodeNotFound.
func (r *Reader) Open(ctx context.Context, sp *quire.Space, revID string, cr *quire.ChangeRequest) (*View, error) {
	rev, tree, err := r.db.RevisionTree(ctx, sp.ID, revID)
	if err != nil {
		return nil, err
	}
	return &View{Space: sp, Revision: rev, Tree: tree, ChangeRequest: cr, r: r}, nil
}

// treeInfo is what reads derive from a tree; trees are immutable, so it is
// computed once per tree and cached by root.
type treeInfo struct {
	index    *content.Index
	resolver *render.Resolver

	linksOnce sync.Once
	links     []render.LinkGroup // every link of every page, in tree order
}

func (v *View) info() *treeInfo { return v.r.info(v.Revision.Root, v.Tree) }

// info is what reads derive from tree t at root, computed once per tree.
func (r *Reader) info(root string, t *content.Tree) *treeInfo {
	if info, ok := r.infos.Get(root); ok {
		return info
	}
	info := &treeInfo{}
	if base, ok := r.infos.Get(t.LayoutBase()); ok && t.LayoutBase() != "" {
		info.index = content.DeriveIndex(t, base.index) // an edit that moved no page
	} else {
		info.index = content.NewIndex(t)
	}
	names := make(map[string]string, len(t.Files))
	for id, f := range t.Files {
		names[id] = f.Name
	}
	info.resolver = &render.Resolver{Tree: t, Paths: info.index.Git, Files: names, AppHost: r.appHost}
	r.infos.Add(root, info, 512+300*len(t.Pages)+100*len(t.Files))
	return info
}

// Index is where the view's pages and files are: paths, parents, Git paths.
func (v *View) Index() *content.Index { return v.info().index }

// Resolver resolves link targets against the view's content.
func (v *View) Resolver() *render.Resolver { return v.info().resolver }

// Page is the page of the view with id, or nil.
func (v *View) Page(id string) *content.Page { return v.Tree.Pages[id] }

// PageAt finds a page by its path, as content.Index.PageAt does.
func (v *View) PageAt(path string) (id string, ok bool) { return v.Index().PageAt(path) }

// Path is a page's slug path ("guides/install").
func (v *View) Path(id string) string { return v.Index().Path[id] }

// Links are the links of every page grouped by target, in the order first
// met walking the tree; computed once per tree.
func (v *View) Links() []render.LinkGroup {
	info := v.info()
	info.linksOnce.Do(func() {
		var ids []string
		var walk func(level []string)
		walk = func(level []string) {
			for _, id := range level {
				ids = append(ids, id)
				walk(v.Tree.Pages[id].Children)
			}
		}
		walk(v.Tree.Root)
		info.links = info.resolver.GroupLinks(ids)
	})
	return info.links
}

// PageLinks are the links of one page grouped by target, in the order met.
func (v *View) PageLinks(id string) []render.LinkGroup { return v.Resolver().GroupLinks([]string{id}) }

// FileBacklinks are the pages that link to a file, in tree order.
func (v *View) FileBacklinks(id string) []string { return render.FileBacklinks(v.Links(), id) }

// Document is a page's JSON document form, cached per tree: it depends on
// the body and on what its links resolve to. A page past render's bounds,
// stored before they were checked, is render.ErrDocumentTooLarge, and is
// remembered as such.
func (v *View) Document(id string) (json.RawMessage, error) {
	key := v.Revision.Root + "/" + id
	doc, ok := v.r.documents.Get(key)
	if !ok {
		resolver := v.Resolver()
		var err error
		doc, err = render.DocumentJSON(v.Tree.Pages[id].Markdown, func(target string) render.Resolution { return resolver.Resolve(id, target) })
		if err != nil && !errors.Is(err, render.ErrDocumentTooLarge) {
			return nil, err
		}
		v.r.documents.Add(key, doc, len(doc)+len(key))
	}
	if doc == nil {
		return nil, render.ErrDocumentTooLarge
	}
	return doc, nil
}

// CommentDocument is the JSON document of a comment's markdown on page
// pageID, its links resolved against the view, cached with the documents
// of pages. finish, when not nil, edits the document before it is
// encoded; a Reader's callers must pass the same one every time, as the
// cache knows only the markdown.
func (v *View) CommentDocument(pageID, markdown string, finish func(doc map[string]any)) json.RawMessage {
	sum := sha256.Sum256([]byte(markdown))
	key := "comment/" + v.Revision.Root + "/" + pageID + "/" + hex.EncodeToString(sum[:16])
	if doc, ok := v.r.documents.Get(key); ok {
		return doc
	}
	resolver := v.Resolver()
	d := render.Document(markdown, func(target string) render.Resolution { return resolver.Resolve(pageID, target) })
	if finish != nil {
		finish(d)
	}
	doc, err := json.Marshal(d)
	if err != nil {
		panic(err) // maps of strings, numbers and slices always marshal
	}
	v.r.documents.Add(key, doc, len(doc)+len(key))
	return doc
}

// Empty is a view of no content in space sp, named as revision revID: what
// a space's first revision changed from. Its root is "", the empty tree's.
func (r *Reader) Empty(sp *quire.Space, revID string) *View {
	return &View{Space: sp, Revision: &store.Revision{ID: revID}, Tree: &content.Tree{Pages: map[string]*content.Page{}}, r: r}
}
