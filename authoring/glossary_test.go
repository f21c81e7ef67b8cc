package authoring_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

func TestSortGlossary(t *testing.T) {
	at := func(s int) time.Time { return time.Unix(1700000000+int64(s), 0) }
	entries := func() []*store.GlossaryEntry {
		return []*store.GlossaryEntry{
			{ID: "c", CreatedAt: at(1), Translations: map[string]string{"fr": "banane"}},
			{ID: "a", CreatedAt: at(3), Translations: map[string]string{"de": "Apfel"}},
			{ID: "b", CreatedAt: at(2), Translations: map[string]string{"fr": "Avion", "de": "Flugzeug"}},
			{ID: "d", CreatedAt: at(2), Translations: map[string]string{"fr": "avion"}},
		}
	}
	for _, tc := range []struct {
		orderBy string
		want    []string
	}{
		{"", []string{"c", "b", "d", "a"}},   // oldest first, then by id
		{"fr", []string{"b", "d", "c", "a"}}, // any case, ties by id, none last
		{"de", []string{"a", "b", "c", "d"}}, // those without a term by id
		{"es", []string{"a", "b", "c", "d"}}, // nobody has one
	} {
		t.Run("orderBy="+tc.orderBy, func(t *testing.T) {
			list := entries()
			authoring.SortGlossary(list, tc.orderBy)
			var got []string
			for _, g := range list {
				got = append(got, g.ID)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("order %v, want %v", got, tc.want)
			}
		})
	}
}

// TestGlossaryPage reads a stored glossary in pages by one language.
func TestGlossaryPage(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	org := f.space.OrgID
	var ops []store.GlossaryOp
	for _, term := range []string{"Cerise", "abricot", "Banane"} {
		ops = append(ops, store.GlossaryOp{Type: "insert", Translations: map[string]string{"fr": term}})
	}
	ops = append(ops, store.GlossaryOp{Type: "insert", Translations: map[string]string{"de": "Dattel"}})
	if err := f.db.UpdateGlossary(ctx, org, ops); err != nil {
		t.Fatal(err)
	}
	var got []string
	p := store.Page{Limit: 3}
	for {
		list, err := f.author.GlossaryPage(ctx, org, "fr", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range list.Items {
			got = append(got, g.Translations["fr"]+g.Translations["de"])
		}
		if list.Next == nil {
			break
		}
		p.After = list.Next
	}
	if want := []string{"abricot", "Banane", "Cerise", "Dattel"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
}
