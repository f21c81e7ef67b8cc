package gitsync

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	for seed := range uint64(200) {
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
		blobs := memBlobs{}
		names := map[string]bool{}
		for i := range r.IntN(3) {
			name := "f" + strings.NewReplacer("/", "", "\\", "").Replace(word(r, 3)) + ".png"
			if names[strings.ToLower(name)] {
				continue
			}
			names[strings.ToLower(name)] = true
			data := pngBytes(t, i+1, 1)
			key, _ := blobs.Put(t.Context(), data)
			id := fmt.Sprintf("f%d", i)
			tr.Files[id] = &content.File{ID: id, Name: name, ContentType: "image/png", Size: int64(len(data)), Width: i + 1, Height: 1, Blob: key}
		}
		want := tr.Clone()
		for _, id := range ids {
			p := tr.Pages[id]
			if p.Kind != content.KindDocument || r.IntN(2) == 0 {
				continue
			}
			to := ids[r.IntN(len(ids))]
			if tr.Pages[to].Kind == content.KindGroup {
				continue // a group has no file to link to
			}
			frag := []string{"", "#part", "#x-y"}[r.IntN(3)]
			p.Markdown += "\nSee [link " + strings.Trim(word(r, 3), "\\[]`<&!") + "](/pages/" + to + frag + ").\n"
			for f := range tr.Files {
				p.Markdown += "\n![pic](/files/" + f + ")\n\n{% file src=\"/files/" + f + "\" %}\n"
			}
			if r.IntN(3) == 0 {
				p.Markdown += "\n> **Warning**\n>\n> Careful now.\n"
			}
			p.Markdown = strings.TrimLeft(p.Markdown, "\n")
			want.Pages[id].Markdown = hintsToGitBook(p.Markdown)
		}
		first := exportMap(t, tr, blobs)
		im, err := Import(nil, first)
		if err != nil {
			t.Fatalf("seed %d: %v\n%q", seed, err, stringsOf(first))
		}
		if diff := cmp.Diff(shape(want), shape(im.Tree)); diff != "" {
			t.Fatalf("seed %d: tree differs:\n%s\nfolder %q", seed, diff, stringsOf(first))
		}
		if diff := cmp.Diff(stringsOf(first), stringsOf(exportMap(t, im.Tree, blobs))); diff != "" {
			t.Fatalf("seed %d: second export differs:\n%s", seed, diff)
		}
	}
}
