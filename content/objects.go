package content

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/quiredocs/quire/internal/lru"
	"slices"
)

// A tree is stored as content-addressed objects: one per page (its metadata,
// the hash of its body and the hashes of its children), one per body, one per
// file record, and a root listing the top-level pages and the files. Lists
// longer than chunkSize are split into chunk objects, so editing one page of
// a thousand stores that page, its body, its ancestors and one chunk per
// level — not the whole space.
const chunkSize = 64

// Objects maps object hashes to their bytes.
type Objects map[string][]byte

// Fetch returns the bytes of the named objects; a missing one is an error.
type Fetch func(hashes []string) (Objects, error)

// ObjectHash is the content address of b: its hex SHA-256.
func ObjectHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// list is an ordered list of object hashes, inline or split into chunks.
type list struct {
	Items  []string `json:"i,omitempty"`
	Chunks []string `json:"c,omitempty"`
}

type rootObject struct {
	Pages list `json:"pages"`
	Files list `json:"files"`
}

type pageObject struct {
	ID            string `json:"id"`
	Title         string `json:"title,omitempty"`
	Slug          string `json:"slug,omitempty"`
	Emoji         string `json:"emoji,omitempty"`
	Icon          string `json:"icon,omitempty"`
	Description   string `json:"description,omitempty"`
	Condition     string `json:"condition,omitempty"`
	Hidden        bool   `json:"hidden,omitempty"`
	NoIndex       bool   `json:"noIndex,omitempty"`
	NoRobotsIndex bool   `json:"noRobotsIndex,omitempty"`
	Kind          string `json:"kind"`
	Body          string `json:"body,omitempty"` // hash of the markdown; "" for empty
	Children      list   `json:"children"`
	CreatedAt     int64  `json:"createdAt,omitempty"`
	UpdatedAt     int64  `json:"updatedAt,omitempty"`
}

type fileObject struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	Size        int64  `json:"size"`
	Width       int    `json:"width,omitempty"`
	Height      int    `json:"height,omitempty"`
	Blob        string `json:"blob"`
}

// Encode turns t into objects and returns the hash of its root; the empty
// tree's root is "". Equal trees give equal roots.
func Encode(t *Tree) (root string, objs Objects) {
	root, objs, _ = encodeFull(t)
	return root, objs
}

// EncodeShared is Encode for a tree about to be stored and shared, which
// must not change any more: it remembers its encoding, and the objects are
// only those a tree it was forked from (Fork) did not have already. A tree
// whose encoding is known gives no objects.
func EncodeShared(t *Tree) (root string, objs Objects) {
	if t.enc != nil {
		return t.enc.root, Objects{}
	}
	var enc *encoding
	if t.incremental() {
		root, objs, enc = encodeFork(t)
	} else {
		root, objs, enc = encodeFull(t)
	}
	t.enc, t.fork = enc, nil
	return root, objs
}

func encodeFull(t *Tree) (string, Objects, *encoding) {
	b := newEntriesBuilder(entries{})
	if t == nil || (len(t.Pages) == 0 && len(t.Files) == 0) {
		return "", Objects{}, &encoding{pages: b.done(), cost: 256}
	}
	enc := &encoding{cost: t.Cost()}
	objs := Objects{}
	var r rootObject
	pages := make([]string, len(t.Root))
	for i, id := range t.Root {
		pages[i] = encodePage(t, id, "", objs, b)
	}
	r.Pages = objs.list(pages)
	r.Files = encodeFiles(t, objs)
	enc.root, enc.pages, enc.files = objs.putJSON(r), b.done(), r.Files
	return enc.root, objs, enc
}

// encodeFork encodes a fork of an encoded tree: the pages it changed and
// their ancestors, the top-level list and, when they changed, the files.
func encodeFork(t *Tree) (string, Objects, *encoding) {
	f, base := t.fork, t.fork.base.enc
	enc := &encoding{cost: base.cost, files: base.files}
	b := newEntriesBuilder(base.pages)
	objs := Objects{}
	placed := t.forkParents()
	dirty := map[string]bool{}
	for id := range f.changed {
		if old := f.base.Pages[id]; old != nil {
			enc.cost -= pageStructCost(old) // its body may be kept by the base
		}
		if p := t.Pages[id]; p != nil {
			enc.cost += PageCost(p)
		} else {
			b.delete(id)
			continue
		}
		for cur, n := id, 0; !dirty[cur] && n <= len(t.Pages); n++ {
			dirty[cur] = true
			parent, ok := t.forkParent(cur, placed)
			if !ok || parent == "" {
				break
			}
			cur = parent
		}
	}
	var hashOf func(id, parent string) string
	// Only dirty pages are encoded, each once, from its children's hashes.
	hashOf = func(id, parent string) string {
		if !dirty[id] {
			e, _ := b.get(id)
			return e.hash
		}
		p := t.Pages[id]
		kids := make([]string, len(p.Children))
		for i, c := range p.Children {
			kids[i] = hashOf(c, id)
		}
		h := pageObjectOf(p, kids, objs)
		b.set(id, encodedPage{hash: h, parent: parent})
		return h
	}
	if len(t.Pages) == 0 && len(t.Files) == 0 {
		enc.pages = newEntriesBuilder(entries{}).done()
		return "", Objects{}, enc
	}
	var r rootObject
	pages := make([]string, len(t.Root))
	for i, id := range t.Root {
		pages[i] = hashOf(id, "")
	}
	for id, parent := range placed { // pages moved without changing
		if e, ok := b.get(id); ok && e.parent != parent {
			e.parent = parent
			b.set(id, e)
		}
	}
	r.Pages = objs.list(pages)
	if f.files {
		enc.files = encodeFiles(t, objs)
		enc.cost += 128 * (len(t.Files) - len(f.base.Files))
	}
	r.Files = enc.files
	enc.root, enc.pages = objs.putJSON(r), b.done()
	if t.sameLayout() {
		enc.layoutBase = base.root
	}
	return enc.root, objs, enc
}

func encodeFiles(t *Tree, objs Objects) list {
	fileIDs := make([]string, 0, len(t.Files))
	for id := range t.Files {
		fileIDs = append(fileIDs, id)
	}
	slices.Sort(fileIDs)
	files := make([]string, len(fileIDs))
	for i, id := range fileIDs {
		f := t.Files[id]
		files[i] = objs.putJSON(fileObject(*f))
	}
	return objs.list(files)
}

// encodePage encodes the subtree of page id, recording each page in b.
func encodePage(t *Tree, id, parent string, objs Objects, b *entriesBuilder) string {
	p := t.Pages[id]
	kids := make([]string, len(p.Children))
	for i, c := range p.Children {
		kids[i] = encodePage(t, c, id, objs, b)
	}
	h := pageObjectOf(p, kids, objs)
	b.set(id, encodedPage{hash: h, parent: parent})
	return h
}

// pageObjectOf stores the object of p, whose children's objects are kids.
func pageObjectOf(p *Page, kids []string, objs Objects) string {
	o := pageObject{
		ID: p.ID, Title: p.Title, Slug: p.Slug, Emoji: p.Emoji, Icon: p.Icon,
		Description: p.Description, Condition: p.Condition, Hidden: p.Hidden,
		NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, Kind: p.Kind,
		Children: objs.list(kids), CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}
	if p.Markdown != "" {
		o.Body = objs.put([]byte(p.Markdown))
	}
	return objs.putJSON(o)
}

func (objs Objects) put(b []byte) string {
	h := ObjectHash(b)
	objs[h] = b
	return h
}

func (objs Objects) putJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain structs of strings and numbers always marshal
	}
	return objs.put(b)
}

func (objs Objects) list(items []string) list {
	if len(items) <= chunkSize {
		return list{Items: items}
	}
	var l list
	for c := range slices.Chunk(items, chunkSize) {
		l.Chunks = append(l.Chunks, objs.putJSON(c))
	}
	return l
}

// Decode rebuilds the tree whose root is root, fetching objects level by
// level: a tree of depth d costs about 2d fetches, whatever its size.
func Decode(root string, fetch Fetch) (*Tree, error) {
	t := &Tree{Pages: map[string]*Page{}, Files: map[string]*File{}}
	b := newEntriesBuilder(entries{})
	if root == "" {
		t.enc = &encoding{pages: b.done(), cost: t.Cost()}
		return t, nil
	}
	objs, err := fetch([]string{root})
	if err != nil {
		return nil, err
	}
	var r rootObject
	if err := decodeObject(objs, root, &r); err != nil {
		return nil, err
	}
	lists, err := expand(fetch, []list{r.Pages, r.Files})
	if err != nil {
		return nil, err
	}
	if err := decodeFiles(t, fetch, lists[1]); err != nil {
		return nil, err
	}
	// Walk down one level at a time: parents[i] receives the pages of level[i].
	level, parents := [][]string{lists[0]}, []*Page{nil}
	fresh := 0 // bytes of the bodies not shared with trees decoded before
	for len(level) > 0 {
		if level, parents, err = decodeLevel(t, fetch, level, parents, b, &fresh); err != nil {
			return nil, err
		}
	}
	t.enc = &encoding{root: root, pages: b.done(), files: r.Files, cost: t.sharedCost() + fresh}
	return t, nil
}

// decodeFiles adds to t the files whose objects are hashes.
func decodeFiles(t *Tree, fetch Fetch, hashes []string) error {
	files, _, err := kept(fileObjects, fetch, hashes, jsonObject[fileObject])
	for _, h := range hashes {
		if f, ok := files[h]; ok {
			file := File(f)
			t.Files[f.ID] = &file
		}
	}
	return err
}

// decodeLevel adds to t the pages of one level of the tree, with their
// bodies, parents[i] receiving those of level[i]; it returns the next level
// and its parents in the same form.
func decodeLevel(t *Tree, fetch Fetch, level [][]string, parents []*Page, b *entriesBuilder, fresh *int) ([][]string, []*Page, error) {
	objs, err := pageObjectsOf(fetch, level)
	if err != nil {
		return nil, nil, err
	}
	var nextLists []list
	var nextParents []*Page
	var bodies []string
	var bodyOf []*Page
	for i, l := range level {
		for _, h := range l {
			o := objs[h]
			p, err := decodePage(t, o, h, parents[i])
			if err != nil {
				return nil, nil, err
			}
			parent := ""
			if parents[i] != nil {
				parent = parents[i].ID
			}
			b.set(o.ID, encodedPage{hash: h, parent: parent})
			if o.Body != "" {
				bodies, bodyOf = append(bodies, o.Body), append(bodyOf, p)
			}
			nextLists, nextParents = append(nextLists, o.Children), append(nextParents, p)
		}
	}
	n, err := fetchBodies(fetch, bodies, bodyOf)
	if err != nil {
		return nil, nil, err
	}
	*fresh += n
	expanded, err := expand(fetch, nextLists)
	if err != nil {
		return nil, nil, err
	}
	level, parents = nil, nil
	for i, l := range expanded {
		if len(l) > 0 {
			level, parents = append(level, l), append(parents, nextParents[i])
		}
	}
	return level, parents, nil
}

// decodePage adds to t the page of object o (hash h), under parent (nil:
// the top level).
func decodePage(t *Tree, o *pageObject, h string, parent *Page) (*Page, error) {
	if _, dup := t.Pages[o.ID]; dup {
		return nil, fmt.Errorf("object %s: page %q appears twice", h, o.ID)
	}
	p := &Page{
		ID: o.ID, Title: o.Title, Slug: o.Slug, Emoji: o.Emoji, Icon: o.Icon,
		Description: o.Description, Condition: o.Condition, Hidden: o.Hidden,
		NoIndex: o.NoIndex, NoRobotsIndex: o.NoRobotsIndex, Kind: o.Kind,
		CreatedAt: o.CreatedAt, UpdatedAt: o.UpdatedAt,
	}
	t.Pages[o.ID] = p
	if parent == nil {
		t.Root = append(t.Root, o.ID)
	} else {
		parent.Children = append(parent.Children, o.ID)
	}
	return p, nil
}

// The objects of pages, their bodies, files and list chunks are kept
// decoded, by hash, and shared by every Decode: the revisions of a space
// hold mostly the same pages, and fetching and decoding them again was most
// of the work of reading a new revision's tree. Objects never change, so
// what is kept stays right; read only.
var (
	pageObjects = lru.New[string, *pageObject]("content.pages")
	bodyTexts   = lru.New[string, string]("content.bodies")
	listChunks  = lru.New[string, []string]("content.lists")
	fileObjects = lru.New[string, fileObject]("content.files")
)

// kept returns the decoded objects of hashes: those kept in cache, and the
// others fetched in one call, decoded and kept; and the bytes of those it
// fetched.
func kept[V any](cache *lru.Cache[string, V], fetch Fetch, hashes []string, decode func([]byte) (V, error)) (map[string]V, int, error) {
	out := make(map[string]V, len(hashes))
	var missing []string
	for _, h := range hashes {
		if v, ok := cache.Get(h); ok {
			out[h] = v
		} else {
			missing = append(missing, h)
		}
	}
	if len(missing) == 0 {
		return out, 0, nil
	}
	objs, err := fetch(missing)
	if err != nil {
		return nil, 0, err
	}
	fetched := 0
	for _, h := range missing {
		if _, done := out[h]; done { // listed twice
			continue
		}
		b, ok := objs[h]
		if !ok {
			return nil, 0, fmt.Errorf("object %s is missing", h)
		}
		v, err := decode(b)
		if err != nil {
			return nil, 0, fmt.Errorf("object %s: %w", h, err)
		}
		cache.Add(h, v, len(b)+len(h)+64)
		out[h] = v
		fetched += len(b)
	}
	return out, fetched, nil
}

func jsonObject[V any](b []byte) (V, error) {
	var v V
	err := json.Unmarshal(b, &v)
	return v, err
}

func decodedPageObject(b []byte) (*pageObject, error) {
	o := new(pageObject)
	return o, json.Unmarshal(b, o)
}

func bodyText(b []byte) (string, error) { return string(b), nil }

// pageObjectsOf decodes the page objects of the hashes of level.
func pageObjectsOf(fetch Fetch, level [][]string) (map[string]*pageObject, error) {
	objs, _, err := kept(pageObjects, fetch, slices.Concat(level...), decodedPageObject)
	return objs, err
}

// fetchBodies sets the markdown of bodyOf[i] to the object bodies[i], and
// returns the bytes of the bodies that were not kept: what the tree holds
// on its own, rather than shares with the trees decoded before.
func fetchBodies(fetch Fetch, bodies []string, bodyOf []*Page) (int, error) {
	texts, fresh, err := kept(bodyTexts, fetch, bodies, bodyText)
	if err != nil {
		return 0, err
	}
	for i, h := range bodies {
		bodyOf[i].Markdown = texts[h]
	}
	return fresh, nil
}

// expand resolves each list to its items.
func expand(fetch Fetch, lists []list) ([][]string, error) {
	var hashes []string
	for _, l := range lists {
		hashes = append(hashes, l.Chunks...)
	}
	chunks, _, err := kept(listChunks, fetch, hashes, jsonObject[[]string])
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(lists))
	for i, l := range lists {
		out[i] = slices.Clip(l.Items) // shared (pageObjects): appending must copy
		for _, c := range l.Chunks {
			out[i] = append(out[i], chunks[c]...)
		}
	}
	return out, nil
}

func decodeObject(objs Objects, h string, v any) error {
	b, ok := objs[h]
	if !ok {
		return fmt.Errorf("object %s is missing", h)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("object %s: %w", h, err)
	}
	return nil
}
