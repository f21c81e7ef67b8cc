package render

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/quiredocs/quire/internal/contract"
)

// The corpus, testdata/kinds/<kind>.md, holds for each node kind of the
// reference's Document markdown as GitBook's Git Sync writes that kind
// (GitBook's tags and HTML forms; plain CommonMark constructs in the one
// form Markdown writes them: "-" bullets, "---", "*italic*").

// corpus reads testdata/kinds: file name → markdown.
func corpus(t testing.TB) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "kinds", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no corpus in testdata/kinds")
	}
	files := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(b)
	}
	return files
}

// corpusSeeds are the corpus files' markdown, for the fuzz tests.
func corpusSeeds(t testing.TB) []string {
	files := corpus(t)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	mds := make([]string, len(names))
	for i, n := range names {
		mds[i] = files[n]
	}
	return mds
}

// TestDocumentKindsCorpus holds every corpus file to the document model:
// its document is valid against the reference, its markdown is written
// back byte for byte, and the document, sent as JSON, is written as
// markdown that reads back as the same document.
func TestDocumentKindsCorpus(t *testing.T) {
	ref := reference(t)
	for name, md := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			doc := Document(md, nil)
			if ref != nil {
				if err := ref.CheckSchema("JSONDocument", doc); err != nil {
					t.Error(err)
				}
			}
			if got := roundTrip(t, md, nil, nil); got != md {
				t.Errorf("Markdown(Document(%s)) is not the same bytes:\n%s", name, cmp.Diff(md, got))
			}
			roundTrip(t, md, testResolve, resolveIDs)
			b, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			var decoded map[string]any
			if err := json.Unmarshal(b, &decoded); err != nil {
				t.Fatal(err)
			}
			back, err := Markdown(decoded)
			if err != nil {
				t.Fatal(err)
			}
			if again := Document(back, nil); !reflect.DeepEqual(again, doc) {
				t.Errorf("Document(Markdown(JSON of Document(%s))) differs (-want +got):\n%s", name, cmp.Diff(doc, again))
			}
		})
	}
}

// coveredKinds are the node kinds (blocks, inlines, marks) the corpus must
// produce: those converted both ways so far. It grows as kinds are done;
// when it holds every kind of the reference, TestDocumentCoversEveryKind
// asserts them all and this list goes away.
var coveredKinds = []string{
	"block:paragraph", "block:heading-1", "block:heading-2", "block:heading-3",
	"block:list-ordered", "block:list-unordered", "block:list-tasks", "block:list-item", "block:divider", "block:blockquote",
	"block:hint", "block:images", "block:image", "block:code", "block:code-line",
	"block:expandable", "block:tabs", "block:tabs-item", "block:table",
	"block:stepper", "block:stepper-step", "block:columns", "block:column", "block:updates", "block:update",
	"inline:link", "inline:inline-image", "inline:expression", "inline:mention", "inline:icon",
	"mark:bold", "mark:italic", "mark:strikethrough", "mark:code",
	"mark:keyboard", "mark:superscript", "mark:subscript", "mark:color",
}

// TestDocumentCoversEveryKind lists every block, inline and mark kind of
// the reference schema (DocumentBlock, DocumentInline, DocumentTextMark)
// and checks the corpus produces each covered one; the others, still to
// do, are logged.
func TestDocumentCoversEveryKind(t *testing.T) {
	if reference(t) == nil {
		t.Skip("reference OpenAPI document not found")
	}
	all := referenceKinds(t, contract.Find("."))
	seen := map[string]bool{}
	for _, md := range corpus(t) {
		nodeKinds(Document(md, nil), seen)
	}
	var missing, todo []string
	for _, k := range all {
		switch {
		case seen[k]:
		case slices.Contains(coveredKinds, k):
			missing = append(missing, k)
		default:
			todo = append(todo, k)
		}
	}
	for _, k := range coveredKinds {
		if !slices.Contains(all, k) {
			t.Errorf("covered kind %s is not in the reference", k)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no corpus file in testdata/kinds produces %s", strings.Join(missing, ", "))
	}
	if len(todo) > 0 {
		t.Logf("kinds not converted yet (%d of %d): %s", len(todo), len(all), strings.Join(todo, ", "))
	}
}

// referenceKinds reads the kinds of the reference schema: "block:<type>"
// for each type of DocumentBlock's oneOf, "inline:<type>" for
// DocumentInline's, "mark:<type>" for DocumentTextMark's.
func referenceKinds(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				OneOf []struct {
					Ref string `json:"$ref"`
				} `json:"oneOf"`
				Properties struct {
					Type struct {
						Enum []string `json:"enum"`
					} `json:"type"`
				} `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	schemas := doc.Components.Schemas
	var kinds []string
	for _, group := range []struct{ schema, prefix string }{
		{"DocumentBlock", "block:"}, {"DocumentInline", "inline:"}, {"DocumentTextMark", "mark:"},
	} {
		one := schemas[group.schema].OneOf
		if len(one) == 0 {
			t.Fatalf("the reference has no %s oneOf", group.schema)
		}
		for _, r := range one {
			name := strings.TrimPrefix(r.Ref, "#/components/schemas/")
			enum := schemas[name].Properties.Type.Enum
			if len(enum) == 0 {
				t.Fatalf("%s: no type enum", name)
			}
			for _, typ := range enum {
				kinds = append(kinds, group.prefix+typ)
			}
		}
	}
	return kinds
}

// nodeKinds marks in seen the kind of every node of v: its blocks,
// inlines (in nodes and fragments) and the marks of its leaves.
func nodeKinds(v any, seen map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		if typ, ok := v["type"].(string); ok {
			switch v["object"] {
			case "block", "inline", "mark":
				seen[v["object"].(string)+":"+typ] = true
			}
		}
		for _, k := range []string{"nodes", "fragments", "leaves", "marks"} {
			nodeKinds(v[k], seen)
		}
	case []any:
		for _, x := range v {
			nodeKinds(x, seen)
		}
	}
}
