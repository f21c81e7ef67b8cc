package revision

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/search"
	"github.com/quiredocs/quire/store"
)

// sectionsKey is what a page's sections are split from: the strings
// themselves, hashed by the map, rather than a digest of them computed for
// every result shown.
type sectionsKey struct{ title, description, markdown string }

// Sections splits a page as the search index did, cached by its text.
func (r *Reader) Sections(p *content.Page) []search.WordSection {
	key := sectionsKey{p.Title, p.Description, p.Markdown}
	if secs, ok := r.sections.Get(key); ok {
		return secs
	}
	secs := search.Sections(p)
	r.sections.Add(key, secs, len(p.Title)+len(p.Description)+3*len(p.Markdown)+64*len(secs))
	return secs
}

// Search finds the pages of the space's current content that hold every
// term, best first, each with its hits best first. The index follows the
// space's current revision: hits on pages the view does not hold are
// dropped. The result is shared: do not modify it.
//
// What a search finds at a root is cached by the space, root and terms: a
// search repeated at the view's revision reads nothing. After a merge, the
// index is asked again which sections hold the terms only in the pages
// whose text changed (match), and only those pages are scored: a
// section's score depends on its text alone (search.ScoreSections).
func (v *View) Search(ctx context.Context, terms []string) ([]Ranked, error) {
	joined := strings.Join(terms, "\x00")
	key := v.Space.ID + "\x00" + v.Revision.Root + "\x00" + joined
	if ranked, ok := v.r.ranked.Get(key); ok {
		return ranked, nil
	}
	hits, root, err := v.match(ctx, terms, joined)
	if err != nil {
		return nil, err
	}
	hits = hits[:min(len(hits), store.MaxSearchRows)]
	ranked := rankedOf(search.RankPages(hits, func(id string) bool { return v.Tree.Pages[id] != nil }))
	if root == v.Revision.Root { // else the index moved on since the view was read
		v.r.ranked.Add(key, ranked, len(key)+64*len(ranked)+80*len(hits)) // a hit and its page id
	}
	return ranked, nil
}

// matched is what the index found for some terms in a space at a root.
type matched struct {
	root    string
	indexed []*content.Page // the searchable pages at root (View.indexed)
	hits    []search.Hit    // scored, in order (byScore); shared: do not modify
}

// page is the searchable page id of m, or nil.
func (m *matched) page(id string) *content.Page {
	i, ok := slices.BinarySearchFunc(m.indexed, id, func(p *content.Page, id string) int { return strings.Compare(p.ID, id) })
	if !ok {
		return nil
	}
	return m.indexed[i]
}

// byScore orders hits best first, then by page and position.
func byScore(a, b search.Hit) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	if c := strings.Compare(a.PageID, b.PageID); c != 0 {
		return c
	}
	return cmp.Compare(a.Position, b.Position)
}

// maxRematched bounds the pages whose text changed since the last search of
// the same terms that match asks the index about: beyond, it asks about all.
const maxRematched = 200

// match returns the sections of the space's current content that hold the
// terms, scored and in order (byScore), and the root of the index they were
// found in, which is the view's unless a merge came between (the hits are
// then the index's). It starts from what the index found at the last root
// the terms were searched at, when it can: the sections of pages whose text
// did not change since still match with the same scores, and only the
// pages that changed are looked up and scored.
func (v *View) match(ctx context.Context, terms []string, joined string) ([]search.Hit, string, error) {
	key := v.Space.ID + "\x00" + joined
	at := matched{root: v.Revision.Root, indexed: v.r.db.IndexedPages(v.Revision.Root, v.Tree)}
	if last, ok := v.r.matched.Get(key); ok && len(last.hits) < store.MaxMatchedSections {
		for range 2 { // to the view's root, else to the index's when a merge came between
			if last.root == at.root {
				return last.hits, at.root, nil
			}
			indexRoot, err := v.rematch(ctx, &last, &at, terms, joined)
			if err != nil || indexRoot == at.root {
				if err == nil {
					v.keepMatched(key, at)
				}
				return at.hits, at.root, err
			}
			if indexRoot == "" {
				break
			}
			if at, err = v.matchedAt(ctx, indexRoot); err != nil {
				return nil, "", err
			}
		}
	}
	hits, indexRoot, err := v.r.db.MatchSpaceRoot(ctx, v.Space.ID, terms)
	if err != nil || indexRoot == "" {
		return nil, "", err
	}
	if indexRoot != at.root {
		if at, err = v.matchedAt(ctx, indexRoot); err != nil {
			return nil, "", err
		}
	}
	if at.hits, err = v.scoreHits(ctx, &at, hits, terms, joined); err != nil {
		return nil, "", err
	}
	v.keepMatched(key, at)
	return at.hits, at.root, nil
}

// matchedAt is what is known of root before the index is asked: its
// searchable pages.
func (v *View) matchedAt(ctx context.Context, root string) (matched, error) {
	t, err := v.r.db.Tree(ctx, root)
	if err != nil {
		return matched{}, err
	}
	return matched{root: root, indexed: v.r.db.IndexedPages(root, t)}, nil
}

// rematch asks the index which sections hold the terms in the pages that
// changed between last and at, and sets at's hits: last's of the pages
// that did not change, and those found, scored, if the index holds at's
// root. It returns the index's root, or "" when too many pages changed.
func (v *View) rematch(ctx context.Context, last, at *matched, terms []string, joined string) (indexRoot string, err error) {
	changes := search.ChangedPages(last.indexed, at.indexed)
	if len(changes) > maxRematched {
		return "", nil
	}
	changed := make([]string, len(changes)) // in id order
	for i, c := range changes {
		changed[i] = c.ID
	}
	found, indexRoot, err := v.r.db.MatchSpacePages(ctx, v.Space.ID, terms, changed)
	if err != nil || indexRoot != at.root {
		return indexRoot, err
	}
	if found, err = v.scoreHits(ctx, at, found, terms, joined); err != nil {
		return "", err
	}
	kept := make([]search.Hit, 0, len(last.hits))
	for _, h := range last.hits {
		if _, gone := slices.BinarySearch(changed, h.PageID); !gone {
			kept = append(kept, h)
		}
	}
	at.hits = mergeHits(kept, found)
	return indexRoot, nil
}

// mergeHits merges two lists of hits in order (byScore) into one.
func mergeHits(a, b []search.Hit) []search.Hit {
	out := make([]search.Hit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if byScore(a[0], b[0]) <= 0 {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// keepMatched caches what the index found. The searchable pages it keeps
// are shared with the tree's, but count against the cache: they may
// outlive it.
func (v *View) keepMatched(key string, m matched) {
	v.r.matched.Add(key, m, len(key)+80*len(m.hits)+8*len(m.indexed))
}

// scoreKey names a page's text and the terms of a search.
type scoreKey struct {
	text  string // textKey
	terms string
}

var textSeed = maphash.MakeSeed()

// textKey names what the index holds of page p of tree t: the hash of its
// object in a stored tree (which covers its subtree too: a page whose
// child changed is scored again, which is rare), else a print of its text.
func textKey(t *content.Tree, p *content.Page) string {
	if hash, ok := t.PageHash(p.ID); ok {
		return hash
	}
	var h maphash.Hash
	h.SetSeed(textSeed)
	for _, s := range []string{p.Title, p.Description, p.Markdown} {
		h.WriteString(s)
		h.WriteByte(0)
	}
	return strconv.FormatUint(h.Sum64(), 16) // shorter than a hash: never the same
}

// scoreHits scores hits found at at's root, drops those of pages it does
// not hold, and sorts them (byScore). The scores of a page are cached by
// its text and the terms, and the words they are counted on by its text.
func (v *View) scoreHits(ctx context.Context, at *matched, hits []search.Hit, terms []string, joined string) ([]search.Hit, error) {
	tree, err := v.r.db.Tree(ctx, at.root)
	if err != nil {
		return nil, err
	}
	byPage := map[string][]float64{}
	texts := map[string]string{}
	var unscored []*content.Page
	for _, h := range hits {
		p := at.page(h.PageID)
		if _, seen := texts[h.PageID]; seen || p == nil {
			continue
		}
		texts[h.PageID] = textKey(tree, p)
		if scores, ok := v.r.scores.Get(scoreKey{texts[h.PageID], joined}); ok {
			byPage[h.PageID] = scores
		} else {
			unscored = append(unscored, p)
		}
	}
	if err := v.scorePages(ctx, at.root, unscored, texts, terms, joined, byPage); err != nil {
		return nil, err
	}
	out := make([]search.Hit, 0, len(hits))
	for _, h := range hits {
		if scores := byPage[h.PageID]; h.Position < len(scores) { // else the index moved on
			h.Score = scores[h.Position]
			out = append(out, h)
		}
	}
	slices.SortFunc(out, byScore)
	return out, nil
}

// indexedWords are a page's words as the index holds them (ScoreSections).
type indexedWords struct {
	page     []string
	sections []search.WordSection
}

// scorePages scores the pages for terms into byPage, and caches the scores.
// Their words come from the words cache, else from the index's own folded
// text, read for all of them at once: splitting thousands of pages' markdown
// for a search of a word they all hold took most of a second. A page the
// index no longer holds as at root is split from its markdown.
func (v *View) scorePages(ctx context.Context, root string, pages []*content.Page, texts map[string]string, terms []string, joined string, byPage map[string][]float64) error {
	words := make(map[string]*indexedWords, len(pages))
	var unread []string
	for _, p := range pages {
		if w, ok := v.r.words.Get(texts[p.ID]); ok {
			words[p.ID] = w
		} else {
			unread = append(unread, p.ID)
		}
	}
	if len(unread) > 0 {
		indexed, indexRoot, err := v.r.db.IndexedSections(ctx, v.Space.ID, unread)
		if err != nil {
			return err
		}
		for _, p := range pages {
			if words[p.ID] != nil {
				continue
			}
			secs := indexed[p.ID]
			var w indexedWords
			if indexRoot == root && len(secs) > 0 {
				titles, bodies := make([]string, len(secs)), make([]string, len(secs))
				cost := 64
				for i, s := range secs {
					titles[i], bodies[i] = s.Title, s.Body
					cost += len(s.PageText) + len(s.Title) + 2*len(s.Body)
				}
				w.page, w.sections = search.IndexedWords(secs[0].PageText, titles, bodies)
				v.r.words.Add(texts[p.ID], &w, cost+len(texts[p.ID]))
			} else { // the index moved on: the page's own words
				w.page, w.sections = search.Words(p.Title+" "+p.Description), v.r.Sections(p)
			}
			words[p.ID] = &w
		}
	}
	for _, p := range pages {
		scores := search.ScoreSections(words[p.ID].page, words[p.ID].sections, terms)
		v.r.scores.Add(scoreKey{texts[p.ID], joined}, scores, len(texts[p.ID])+len(joined)+8*len(scores)+64)
		byPage[p.ID] = scores
	}
	return nil
}

// Source is a section found to answer a question, and where it is.
type Source struct {
	View    *View // the space's current content
	Page    *content.Page
	Section search.Section
}

// SourceLimits bound what Sources reads and returns.
type SourceLimits struct {
	Hits    int // sections the index ranks
	Sources int // sections returned
	PerPage int // sections returned of one page
	// Keep, when not nil, tells which pages may be sources (a published
	// site's visitor may not see every page); the others are passed over
	// without counting against Sources.
	Keep func(v *View, pageID string) bool
}

// Sources finds the sections of the spaces' current content that best
// hold the words of a question: up to lim.Sources of them, at most
// lim.PerPage of a page, best first.
func (r *Reader) Sources(ctx context.Context, spaces []*quire.Space, question string, lim SourceLimits) ([]Source, error) {
	byID := map[string]*quire.Space{}
	var ids []string
	for _, sp := range spaces {
		byID[sp.ID] = sp
		ids = append(ids, sp.ID)
	}
	hits, err := r.db.SearchSpacesAny(ctx, ids, search.QuestionTerms(question), lim.Hits)
	if err != nil {
		return nil, err
	}
	views := map[string]*View{}
	perPage := map[string]int{}
	var out []Source
	for _, h := range hits {
		if len(out) == lim.Sources {
			break
		}
		sp := byID[h.SpaceID]
		if views[sp.ID] == nil {
			if views[sp.ID], err = r.Open(ctx, sp, sp.RevisionID, nil); err != nil {
				return nil, err
			}
		}
		v := views[sp.ID]
		pg := v.Tree.Pages[h.PageID]
		pageKey := sp.ID + "/" + h.PageID // duplicated spaces share page ids
		if pg == nil || perPage[pageKey] == lim.PerPage || (lim.Keep != nil && !lim.Keep(v, pg.ID)) {
			continue
		}
		sections := r.Sections(pg)
		if h.Position >= len(sections) {
			continue
		}
		perPage[pageKey]++
		out = append(out, Source{View: v, Page: pg, Section: sections[h.Position].Section})
	}
	return out, nil
}

// Titles are up to n titles and headings of the searchable pages of the
// spaces' current content, in reading order, spaces in the order given;
// and a key that changes when the content they were read from does.
func (r *Reader) Titles(ctx context.Context, spaces []*quire.Space, n int) (titles []string, key string, err error) {
	return r.KeptTitles(ctx, spaces, n, nil)
}

// KeptTitles are Titles of the pages keep keeps (nil: every page), a page
// kept out taking its children with it: those a published site's visitor
// sees.
func (r *Reader) KeptTitles(ctx context.Context, spaces []*quire.Space, n int, keep func(v *View, pageID string) bool) (titles []string, key string, err error) {
	h := sha256.New()
	for _, sp := range spaces {
		if len(titles) >= n {
			break
		}
		v, err := r.Open(ctx, sp, sp.RevisionID, nil)
		if err != nil {
			return nil, "", err
		}
		h.Write([]byte(v.Revision.Root + "\n"))
		titles = append(titles, v.keptTitles(n-len(titles), keep)...)
	}
	return titles, hex.EncodeToString(h.Sum(nil)), nil
}

// readingTitles are up to n titles and headings of the view's searchable
// pages, in reading order.
func (v *View) readingTitles(n int) []string { return v.keptTitles(n, nil) }

// keptTitles are readingTitles of the pages keep keeps (nil: every page)
// and of their children.
func (v *View) keptTitles(n int, keep func(v *View, pageID string) bool) []string {
	indexed := v.r.db.IndexedPages(v.Revision.Root, v.Tree)
	var out []string
	var walk func(ids []string)
	walk = func(ids []string) {
		for _, id := range ids {
			p := v.Tree.Pages[id]
			if len(out) >= n || p == nil {
				return
			}
			if keep != nil && !keep(v, id) {
				continue
			}
			if _, found := slices.BinarySearchFunc(indexed, id, func(p *content.Page, id string) int { return strings.Compare(p.ID, id) }); found {
				out = append(out, PageTitle(p))
				for _, sec := range v.r.Sections(p) {
					if sec.Title != "" && len(out) < n {
						out = append(out, sec.Title)
					}
				}
			}
			walk(p.Children)
		}
	}
	walk(v.Tree.Root)
	return out
}

// PageTitle is a page's title as answers and questions show it: the
// reference requires a non-empty one, "Untitled" when it has none.
func PageTitle(p *content.Page) string {
	if p.Title == "" {
		return "Untitled"
	}
	return p.Title
}

// PageResult is a ranked page as a search shows it. What it shows is read
// from the content, as the index holds folded text.
type PageResult struct {
	Page      *content.Page
	Path      string
	Score     float64  // its best section's
	ByTitle   bool     // its title and description hold every term
	Ancestors []string // titles of the pages above it, from the top
	Sections  []SectionResult
}

// SectionResult is a section shown under a page result.
type SectionResult struct {
	ID      string
	Title   string // the page's, for the text before any heading
	Path    string // the page's, with the section's anchor
	Score   float64
	Own     bool   // matched by its own text, rather than by the page's title or description
	Snippet string // text around its first match
}

// snippetKey is what a snippet is cut from: a section's text, the terms
// (joined) and its length.
type snippetKey struct {
	text, terms string
	runes       int
}

// snippet is search.Snippet, cached: a search after a merge shows mostly
// the same sections again.
func (r *Reader) snippet(text string, terms []string, joined string, runes int) string {
	key := snippetKey{text, joined, runes}
	if s, ok := r.snippets.Get(key); ok {
		return s
	}
	s := search.Snippet(text, terms, runes)
	r.snippets.Add(key, s, len(text)+len(s)+len(joined)+64) // the text may outlive the sections cache
	return s
}

// Result shows ranked page rp with up to n of its sections
// (search.ShowSections), each with up to snippet characters of text.
func (v *View) Result(rp Ranked, terms []string, n, snippet int) PageResult {
	pg := v.Tree.Pages[rp.PageID]
	res := PageResult{Page: pg, Path: v.Path(pg.ID), Score: rp.Score, Ancestors: []string{},
		ByTitle: search.MatchesAll(search.Words(pg.Title+" "+pg.Description), terms)}
	for _, id := range v.Index().Ancestors(pg.ID) {
		res.Ancestors = append(res.Ancestors, PageTitle(v.Tree.Pages[id]))
	}
	joined := strings.Join(terms, "\x00")
	for _, sec := range search.ShowSections(rp.Hits, v.r.Sections(pg), terms, n) {
		sr := SectionResult{ID: sec.ID, Title: sec.Title, Path: res.Path, Score: sec.Score, Own: sec.Own,
			Snippet: v.r.snippet(sec.Body, terms, joined, snippet)}
		if sr.Title == "" {
			sr.Title = PageTitle(pg)
		}
		if sec.ID != "" {
			sr.Path += "#" + sec.ID
		}
		res.Sections = append(res.Sections, sr)
	}
	return res
}
