package authoring

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/quiredocs/quire/store"
)

// GlossaryPage is page p of organization orgID's translation glossary:
// oldest first, or, with orderBy (a language of
// quire.TranslationLanguages, the caller's to check), by the term in that
// language, any case, entries without one last (SortGlossary).
func (a *Author) GlossaryPage(ctx context.Context, orgID, orderBy string, p store.Page) (*store.List[*store.GlossaryEntry], error) {
	entries, err := a.DB.GlossaryEntries(ctx, orgID)
	if err != nil {
		return nil, err
	}
	key := SortGlossary(entries, orderBy)
	return store.PageOf(entries, p, key), nil
}

// SortGlossary sorts entries as GlossaryPage lists them and returns the
// key of that order, which the pages' cursors hold.
func SortGlossary(entries []*store.GlossaryEntry, orderBy string) func(*store.GlossaryEntry) store.Cursor {
	key := func(g *store.GlossaryEntry) store.Cursor {
		if orderBy == "" {
			return store.Cursor{Str: fmt.Sprintf("%019d", g.CreatedAt.UnixMicro()), ID: g.ID}
		}
		if term, ok := g.Translations[orderBy]; ok {
			return store.Cursor{Str: "0" + strings.ToLower(term), ID: g.ID}
		}
		return store.Cursor{Str: "1", ID: g.ID}
	}
	slices.SortFunc(entries, func(a, b *store.GlossaryEntry) int {
		ka, kb := key(a), key(b)
		return cmp.Or(cmp.Compare(ka.Str, kb.Str), cmp.Compare(ka.ID, kb.ID))
	})
	return key
}
