package content

import (
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fetchFrom serves objects from a map and counts the calls.
func fetchFrom(objs Objects, calls *int) Fetch {
	return func(hashes []string) (Objects, error) {
		*calls++
		out := Objects{}
		for _, h := range hashes {
			b, ok := objs[h]
			if !ok {
				return nil, fmt.Errorf("missing %s", h)
			}
			out[h] = b
		}
		return out, nil
	}
}

func roundTrip(t *testing.T, tree *Tree) (string, Objects) {
	t.Helper()
	root, objs := Encode(tree)
	calls := 0
	got, err := Decode(root, fetchFrom(objs, &calls))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("round trip changed the tree (-want +got):\n%s", diff)
	}
	return root, objs
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	for range 200 {
		tree := randTree(r, 40)
		tree.Files = map[string]*File{}
		for i := range r.IntN(4) {
			id := fmt.Sprintf("f%d", i)
			tree.Files[id] = &File{ID: id, Name: id + ".png", ContentType: "image/png", Size: int64(i * 10), Width: 3, Height: 4, Blob: "b" + id}
		}
		roundTrip(t, tree)
	}
	roundTrip(t, &Tree{Pages: map[string]*Page{}, Files: map[string]*File{}})
}

// flatTree has n top-level pages and one page with n children, to exercise
// chunked lists at the root and below a page.
func flatTree(n int) *Tree {
	t := &Tree{Pages: map[string]*Page{}, Files: map[string]*File{}}
	for i := range n {
		id := fmt.Sprintf("p%04d", i)
		t.Pages[id] = &Page{ID: id, Title: "Page " + id, Slug: id, Kind: KindDocument, Markdown: "Body of " + id + "\n"}
		t.Root = append(t.Root, id)
	}
	t.Pages["p0000"].Children = nil
	for i := range n {
		id := fmt.Sprintf("c%04d", i)
		t.Pages[id] = &Page{ID: id, Title: id, Slug: id, Kind: KindDocument}
		t.Pages["p0001"].Children = append(t.Pages["p0001"].Children, id)
	}
	for i := range 200 {
		id := fmt.Sprintf("f%03d", i)
		t.Files[id] = &File{ID: id, Name: id, ContentType: "text/plain", Blob: id}
	}
	return t
}

func TestEncodeChunksAndDecodesByLevel(t *testing.T) {
	tree := flatTree(1000)
	root, objs := roundTrip(t, tree)
	calls := 0
	if _, err := Decode(root, fetchFrom(objs, &calls)); err != nil {
		t.Fatal(err)
	}
	// root, chunks, files, then per level: pages, bodies, chunks.
	if calls > 12 {
		t.Errorf("decoding a two-level tree took %d fetches", calls)
	}
	// Equal trees give equal roots.
	if again, _ := Encode(tree.Clone()); again != root {
		t.Errorf("same tree, different root")
	}
}

func TestEncodeStoresOnlyWhatChanged(t *testing.T) {
	tree := flatTree(1000)
	_, before := Encode(tree)
	edited := tree.Clone()
	edited.Pages["p0500"].Markdown = "A new body\n"
	root, after := Encode(edited)
	newBytes, newObjects := 0, 0
	for h, b := range after {
		if _, ok := before[h]; !ok {
			newBytes += len(b)
			newObjects++
		}
	}
	// The page, its body, one root chunk and the root.
	if newObjects != 4 || newBytes > 10_000 {
		t.Errorf("editing one page of 2,000 added %d objects, %d bytes; want 4 objects under 10 KB", newObjects, newBytes)
	}
	if root == "" {
		t.Fatal("empty root")
	}
}

func TestDecodeReportsMissingObjects(t *testing.T) {
	tree := flatTree(100)
	own := crand.Text() // objects of their own, which no other decode kept
	for _, p := range tree.Pages {
		p.Title += own
		p.Markdown += own // bodies are kept by hash too
	}
	for _, f := range tree.Files {
		f.Name += own
	}
	root, objs := Encode(tree)
	for h := range objs {
		if h == root {
			continue
		}
		partial := Objects{}
		for k, v := range objs {
			if k != h {
				partial[k] = v
			}
		}
		calls := 0
		if _, err := Decode(root, fetchFrom(partial, &calls)); err == nil {
			t.Fatalf("decoding without object %s succeeded", h)
		}
		break
	}
}

// TestDecodeKeepsObjects: decoding a revision after another fetches only
// the objects the second does not share with the first, gives the same
// tree as decoding it alone, and counts in its cost only the bodies it did
// not share.
func TestDecodeKeepsObjects(t *testing.T) {
	tree := flatTree(300)
	own := crand.Text() // objects of their own, which no other decode kept
	for _, p := range tree.Pages {
		p.Markdown += own
	}
	first, objs := Encode(tree)
	edited := tree.Clone()
	edited.Pages["p0042"].Markdown = "Edited, kept objects.\n"
	second, more := Encode(edited)
	added := map[string]bool{}
	for h, b := range more {
		if _, ok := objs[h]; !ok {
			added[h] = true
			objs[h] = b
		}
	}
	var fetched []string
	calls := 0
	fetch := func(hashes []string) (Objects, error) {
		fetched = append(fetched, hashes...)
		return fetchFrom(objs, &calls)(hashes)
	}
	a, err := Decode(first, fetch)
	if err != nil {
		t.Fatal(err)
	}
	fetched = nil
	b, err := Decode(second, fetch)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(edited.Clone(), b.Clone()); diff != "" {
		t.Errorf("second revision (-want +got):\n%s", diff)
	}
	for _, h := range fetched {
		if !added[h] {
			t.Errorf("fetched %s again, which the first revision holds", h)
		}
	}
	if a.Cost() <= b.Cost() || b.Cost() > b.sharedCost()+len(edited.Pages["p0042"].Markdown) {
		t.Errorf("costs %d and %d: the second should count only its one new body beside its pages", a.Cost(), b.Cost())
	}
}
