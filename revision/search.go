package revision

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"hash/maphash"
	"slices"
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
// What the index finds at a root is cached by the space, root and terms:
// a search repeated at the view's revision reads nothing, however many
// pages match.
func (v *View) Search(ctx context.Context, terms []string) ([]search.RankedPage, error) {
	key := v.Space.ID + "\x00" + v.Revision.Root + "\x00" + strings.Join(terms, "\x00")
	if ranked, ok := v.r.ranked.Get(key); ok {
		return ranked, nil
	}
	hits, root, err := v.searchHits(ctx, terms)
	if err != nil {
		return nil, err
	}
	ranked := search.RankPages(hits, func(id string) bool { return v.Tree.Pages[id] != nil })
	if root == v.Revision.Root { // else the index moved on since the view was read
		v.r.ranked.Add(key, ranked, len(key)+64*len(ranked)+80*len(hits)) // a hit and its page id
	}
	return ranked, nil
}

// A search of a new revision is derived from the last search of the same
// terms in the space when the store's scores stand alone
// (store.DB.ScoresStandAlone, PostgreSQL): the hits of the pages that did
// not change are kept, and the index is asked only for the changed pages'
// (store.SearchPagesRoot), so that a search after a merge does not rank
// every section that holds its terms again, and finds what a whole search
// finds. It is not when the last search was cut at store.MaxSearchRows
// (what lay past the cut is unknown) or more than maxDerivedPages changed.
// On SQLite, whose bm25 weighs the whole index's statistics, every change
// moves the scores of sections that did not change, by far more than a
// few percent for words that half the sections hold: searches stay whole.
const maxDerivedPages = 256

// lastSearch is the last search of some terms in a space.
type lastSearch struct {
	root  string
	hits  []search.Hit // ordered as the store orders them
	whole bool         // every section holding the terms, not cut
}

// searchHits finds the hits of terms in the index at the space's current
// content, derived from the last search when it can be, and the root the
// index was at.
func (v *View) searchHits(ctx context.Context, terms []string) ([]search.Hit, string, error) {
	if !v.r.db.ScoresStandAlone() {
		return v.r.db.SearchSpaceRoot(ctx, v.Space.ID, terms)
	}
	key := v.Space.ID + "\x00" + strings.Join(terms, "\x00")
	if last, ok := v.r.lastSearches.Get(key); ok && last.whole {
		if changed, ok := v.changedSince(last.root); ok && len(changed) <= maxDerivedPages {
			fresh, root, err := v.r.db.SearchPagesRoot(ctx, v.Space.ID, terms, changed)
			if err != nil {
				return nil, "", err
			}
			if root == v.Revision.Root {
				hits := mergeHits(last.hits, changed, fresh)
				v.rememberSearch(key, hits)
				v.r.derivedSearches.Add(1)
				return hits, root, nil
			}
		}
	}
	hits, root, err := v.r.db.SearchSpaceRoot(ctx, v.Space.ID, terms)
	if err == nil && root == v.Revision.Root {
		v.rememberSearch(key, hits)
	}
	return hits, root, err
}

// rememberSearch keeps hits, found at the view's revision, for the next
// search of the same terms.
func (v *View) rememberSearch(key string, hits []search.Hit) {
	v.textPrints() // what the next search diffs against
	v.r.lastSearches.Add(key, &lastSearch{root: v.Revision.Root, hits: hits, whole: len(hits) < store.MaxSearchRows},
		len(key)+64+80*len(hits))
}

// mergeHits is kept without the hits of the changed pages, with fresh (of
// those pages only), in the store's order (best score first, then by page
// and position) and cut as the store cuts.
func mergeHits(kept []search.Hit, changed []string, fresh []search.Hit) []search.Hit {
	out := make([]search.Hit, 0, len(kept)+len(fresh))
	for _, h := range kept {
		if _, gone := slices.BinarySearch(changed, h.PageID); !gone {
			out = append(out, h)
		}
	}
	out = append(out, fresh...)
	slices.SortStableFunc(out, func(a, b search.Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := strings.Compare(a.PageID, b.PageID); c != 0 {
			return c
		}
		return cmp.Compare(a.Position, b.Position)
	})
	return out[:min(len(out), store.MaxSearchRows)]
}

// textPrints are fingerprints of what the index holds of each searchable
// page of the view (title, description and body), by page id; cached by
// root.
func (v *View) textPrints() map[string]uint64 {
	if prints, ok := v.r.textPrints.Get(v.Revision.Root); ok {
		return prints
	}
	pages := search.Indexed(v.Tree)
	prints := make(map[string]uint64, len(pages))
	for id, p := range pages {
		var h maphash.Hash
		h.SetSeed(textSeed)
		for _, s := range []string{p.Title, p.Description, p.Markdown} {
			h.WriteString(s)
			h.WriteByte(0)
		}
		prints[id] = h.Sum64()
	}
	v.r.textPrints.Add(v.Revision.Root, prints, 64+48*len(prints))
	return prints
}

var textSeed = maphash.MakeSeed()

// changedSince lists, sorted, the pages whose rows in the index differ
// between root and the view's revision (added, removed, or their text
// changed); ok is false when root's fingerprints are not at hand.
func (v *View) changedSince(root string) (changed []string, ok bool) {
	before, ok := v.r.textPrints.Get(root)
	if !ok {
		return nil, false
	}
	now := v.textPrints()
	for id, h := range before {
		if g, in := now[id]; !in || g != h {
			changed = append(changed, id)
		}
	}
	for id := range now {
		if _, in := before[id]; !in {
			changed = append(changed, id)
		}
	}
	slices.Sort(changed)
	return changed, true
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
		titles = append(titles, v.readingTitles(n-len(titles))...)
	}
	return titles, hex.EncodeToString(h.Sum(nil)), nil
}

// readingTitles are up to n titles and headings of the view's searchable
// pages, in reading order.
func (v *View) readingTitles(n int) []string {
	indexed := search.Indexed(v.Tree)
	var out []string
	var walk func(ids []string)
	walk = func(ids []string) {
		for _, id := range ids {
			p := v.Tree.Pages[id]
			if len(out) >= n || p == nil {
				return
			}
			if indexed[id] != nil {
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

// Result shows ranked page rp with up to n of its sections
// (search.ShowSections), each with up to snippet characters of text.
func (v *View) Result(rp search.RankedPage, terms []string, n, snippet int) PageResult {
	pg := v.Tree.Pages[rp.PageID]
	res := PageResult{Page: pg, Path: v.Path(pg.ID), Score: rp.Hits[0].Score, Ancestors: []string{},
		ByTitle: search.MatchesAll(search.Words(pg.Title+" "+pg.Description), terms)}
	for _, id := range v.Index().Ancestors(pg.ID) {
		res.Ancestors = append(res.Ancestors, PageTitle(v.Tree.Pages[id]))
	}
	for _, sec := range search.ShowSections(rp.Hits, v.r.Sections(pg), terms, n) {
		sr := SectionResult{ID: sec.ID, Title: sec.Title, Path: res.Path, Score: sec.Score, Own: sec.Own,
			Snippet: search.Snippet(sec.Body, terms, snippet)}
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
