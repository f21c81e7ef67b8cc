package gitsync

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
)

// TestRoundTripRandomTrees exports and imports trees of awkward titles,
// slugs and metadata: markdown's special characters, unicode, slugs that
// differ only in case, empty titles, groups anywhere.
func TestRoundTripRandomTrees(t *testing.T) {
	pieces := []string{"a", "Z", "ü", "日本", "*", "_", "[", "]", "#", "\\", "`", "<", ">", "&amp;", "!", "|", ":", "\"", "'", " ", "-", ".", "1.", "+", "~", "😀", "%20", "(", ")"}
	word := func(r *rand.Rand, n int) string {
		var b strings.Builder
		for range r.IntN(n) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	slugPieces := []string{"a", "B", "ü", "日本", "-", ".", "x", "Readme", "summary", "_", "%"}
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 1))
		tr := &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}}
		var ids []string
		for i := range 1 + r.IntN(12) {
			id := fmt.Sprintf("p%02d", i)
			kind := content.KindDocument
			if r.IntN(6) == 0 {
				kind = content.KindGroup
			}
			var slug strings.Builder
			for range 1 + r.IntN(3) {
				slug.WriteString(slugPieces[r.IntN(len(slugPieces))])
			}
			p := &content.Page{ID: id, Kind: kind, Title: strings.TrimSpace(word(r, 6)), Slug: slug.String()}
			if kind == content.KindDocument {
				p.Description, p.Emoji, p.Icon, p.Condition = word(r, 3), word(r, 2), word(r, 2), word(r, 2)
				p.Hidden, p.NoIndex, p.NoRobotsIndex = r.IntN(2) == 0, r.IntN(2) == 0, r.IntN(2) == 0
				if r.IntN(2) == 0 {
					p.Markdown = strings.TrimSpace("Body "+word(r, 5)) + "\n"
				}
			}
			parent := ""
			if len(ids) > 0 && r.IntN(2) == 0 {
				parent = ids[r.IntN(len(ids))]
			}
			siblings := tr.Root
			if parent != "" {
				siblings = tr.Pages[parent].Children
			}
			taken := false
			for _, s := range siblings {
				taken = taken || tr.Pages[s].Slug == p.Slug
			}
			if taken {
				continue
			}
			tr.Pages[id] = p
			ids = append(ids, id)
			if parent == "" {
				tr.Root = append(tr.Root, id)
			} else {
				tr.Pages[parent].Children = append(tr.Pages[parent].Children, id)
			}
		}
		blobs := blob.Dir{Path: t.TempDir()}
		first := exportMap(t, tr, blobs)
		im, err := Import(nil, first)
		if err != nil {
			t.Fatalf("seed %d: %v\n%q", seed, err, stringsOf(first))
		}
		if diff := cmp.Diff(shape(tr), shape(im.Tree)); diff != "" {
			t.Fatalf("seed %d: tree differs:\n%s\nfolder %q", seed, diff, stringsOf(first))
		}
		if diff := cmp.Diff(stringsOf(first), stringsOf(exportMap(t, im.Tree, blobs))); diff != "" {
			t.Fatalf("seed %d: second export differs:\n%s", seed, diff)
		}
	}
}
