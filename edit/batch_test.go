package edit

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
)

// parseErr wants Parse(body) to fail as invalid with want in its message.
func parseErr(t *testing.T, body, want string) {
	t.Helper()
	changes, err := Parse([]byte(body))
	if err == nil {
		t.Errorf("Parse(%.200s) = %+v, want an error with %q", body, changes, want)
		return
	}
	if quire.ErrorCode(err) != quire.CodeInvalid {
		t.Errorf("Parse(%.200s): code %q, want %q (%v)", body, quire.ErrorCode(err), quire.CodeInvalid, err)
	}
	if msg := quire.ErrorMessage(err); !strings.Contains(msg, want) {
		t.Errorf("Parse(%.200s) error = %q, want it to contain %q", body, msg, want)
	}
	if changes != nil {
		t.Errorf("Parse(%.200s) returned changes with its error", body)
	}
}

func mustParse(t *testing.T, body string) []Change {
	t.Helper()
	changes, err := Parse([]byte(body))
	if err != nil {
		t.Fatalf("Parse(%.300s): %v", body, err)
	}
	return changes
}

func repeat(n int, c M) []M {
	out := make([]M, n)
	for i := range out {
		out[i] = c
	}
	return out
}

func filesChange(files ...M) M { return M{"operation": "insert_files", "files": files} }

func TestParseBody(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{``, "body: "},
		{`[`, "body: "},
		{`{"changes": [}`, "body: "},
		{`null`, "changes: required"},
		{`{}`, "changes: required"},
		{`{"changes": null}`, "changes: required"},
		{`{"changes": []}`, "changes: at least one change is required"},
		{`{"changes": {}}`, "changes: must be an array"},
		{`{"changes": "x"}`, "changes: must be an array"},
		{`{"chnages": []}`, "chnages: unknown field"},
		{`[]`, "must be an object"},
		{`{"changes": [{"operation": "delete_page", "page": "a"}]} {}`, "body: trailing data"},
		{`{"changes": [{"operation": "delete_page", "page": "a"}]}]`, "body: "},
		{`{"changes": [{"operation": "delete_page", "page": "a"}]}}`, "body: trailing data"},
		{`{"changes": [{"operation": "delete_page", "page": "a"}]} x`, "body: trailing data"},
	} {
		parseErr(t, tc.body, tc.want)
	}
	mustParse(t, " \n{\"changes\": [{\"operation\": \"delete_page\", \"page\": \"a\"}]}\r\n\t ")
	del := M{"operation": "delete_page", "page": "a"}
	if got := mustParse(t, batch(repeat(MaxChanges, del)...)); len(got) != MaxChanges {
		t.Errorf("%d changes parsed, want %d", len(got), MaxChanges)
	}
	parseErr(t, batch(repeat(MaxChanges+1, del)...), "changes: at most 50 changes per batch, got 51")
	// The count is checked before the changes themselves.
	parseErr(t, batch(repeat(MaxChanges+1, M{"operation": "nope"})...), "changes: at most 50")
}

func TestParseErrors(t *testing.T) {
	del := M{"operation": "delete_page", "page": "a"}
	ins := func(extra M) M {
		c := M{"operation": "insert_page", "document": M{}}
		for k, v := range extra {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
		}
		return c
	}
	file := func(extra M) M {
		f := M{"name": "a.png", "url": "https://example.com/a.png"}
		for k, v := range extra {
			if v == nil {
				delete(f, k)
			} else {
				f[k] = v
			}
		}
		return f
	}
	big := base64.StdEncoding.EncodeToString(make([]byte, MaxInlineFile+1))
	for _, tc := range []struct {
		name   string
		change M
		want   string
	}{
		// Operation.
		{"no operation", M{"page": "a"}, "changes[1].operation: required"},
		{"empty operation", M{"operation": ""}, "changes[1].operation: required"},
		{"unknown operation", M{"operation": "rename_page", "page": "a"}, `changes[1].operation: "rename_page" is not one of insert_page, update_page, delete_page, revert_page, insert_files`},
		{"operation not a string", M{"operation": 3}, "changes[1].operation: must be a string"},
		{"unknown field", M{"operation": "update_page", "page": "a", "titel": "x"}, "changes[1].titel: unknown field"},
		{"unknown field of insert", ins(M{"parent": "a"}), "changes[1].parent: unknown field"},

		// Page.
		{"update without page", M{"operation": "update_page", "title": "x"}, "changes[1].page: required"},
		{"update with empty page", M{"operation": "update_page", "page": ""}, "changes[1].page: required"},
		{"delete without page", M{"operation": "delete_page"}, "changes[1].page: required"},
		{"revert without page", M{"operation": "revert_page"}, "changes[1].page: required"},
		{"page not a string", M{"operation": "delete_page", "page": 1}, "changes[1].page: must be a string"},
		{"insert with page", ins(M{"page": "a"}), "changes[1].page: insert_page creates a page; use ref to name it"},

		// Fields an operation does not take.
		{"delete with title", M{"operation": "delete_page", "page": "a", "title": "x"}, "changes[1].operation: delete_page takes only page"},
		{"delete with document", M{"operation": "delete_page", "page": "a", "document": M{}}, "changes[1].operation: delete_page takes only page"},
		{"delete with into", M{"operation": "delete_page", "page": "a", "into": "b"}, "changes[1].operation: delete_page takes only page"},
		{"delete with revision", M{"operation": "delete_page", "page": "a", "revision": "r"}, "changes[1].operation: delete_page takes only page"},
		{"delete with ref", M{"operation": "delete_page", "page": "a", "ref": "r"}, "changes[1].operation: delete_page takes only page"},
		{"delete with files", M{"operation": "delete_page", "page": "a", "files": []M{file(nil)}}, "changes[1].operation: delete_page takes only page"},
		{"revert with hidden", M{"operation": "revert_page", "page": "a", "hidden": true}, "changes[1].operation: revert_page takes only page, revision and block"},
		{"revert with at", M{"operation": "revert_page", "page": "a", "at": 0}, "changes[1].operation: revert_page takes only page, revision and block"},
		{"insert with files", ins(M{"files": []M{file(nil)}}), "changes[1].operation: insert_page takes no files, revision or block"},
		{"update with revision", M{"operation": "update_page", "page": "a", "revision": "r"}, "changes[1].operation: update_page takes no files, revision or block"},
		{"update with block", M{"operation": "update_page", "page": "a", "block": []string{}}, "changes[1].operation: update_page takes no files, revision or block"},
		{"files with page", M{"operation": "insert_files", "page": "a", "files": []M{file(nil)}}, "changes[1].operation: insert_files takes only files"},
		{"files with title", M{"operation": "insert_files", "title": "a", "files": []M{file(nil)}}, "changes[1].operation: insert_files takes only files"},
		{"files with ref", M{"operation": "insert_files", "ref": "a", "files": []M{file(nil)}}, "changes[1].operation: insert_files takes only files"},
		{"update with ref", M{"operation": "update_page", "page": "a", "ref": "r"}, "changes[1].ref: only insert_page takes a ref"},
		{"revert with ref", M{"operation": "revert_page", "page": "a", "ref": "r"}, "changes[1].operation: revert_page takes only"},

		// Document.
		{"insert without document", ins(M{"document": nil, "title": "T"}), "changes[1].document: required"},
		{"null document", ins(M{"document": json.RawMessage("null")}), "changes[1].document: must be an object with markdown"},
		{"string document", ins(M{"document": "# T"}), "changes[1].document: must be an object with markdown"},
		{"JSON document not a document", M{"operation": "update_page", "page": "a", "document": M{"document": M{}}}, "changes[1].document: document"},
		{"JSON document not an object", M{"operation": "update_page", "page": "a", "document": M{"document": "x"}}, "changes[1].document: document: must be a JSON document object"},
		{"markdown and more", ins(M{"document": M{"markdown": "x", "format": "md"}}), `changes[1].document: must be {"markdown": …}, {"document": …} or {}`},
		{"unknown document key", ins(M{"document": M{"text": "x"}}), `changes[1].document: must be {"markdown": …}, {"document": …} or {}`},
		{"markdown not a string", ins(M{"document": M{"markdown": 1}}), "changes[1].document: markdown: must be a string"},
		{"markdown too long", ins(M{"document": md(strings.Repeat("x", MaxMarkdownSize+1))}), "changes[1].document: markdown: at most 1048576 bytes"},

		// Into and at.
		{"into a number", ins(M{"into": 3}), "changes[1].into: must be a page id or null"},
		{"into an object", M{"operation": "update_page", "page": "a", "into": M{}}, "changes[1].into: must be a page id or null"},
		{"into null on insert", ins(M{"into": json.RawMessage("null")}), "changes[1].into: must be a page id; omit it for the top level"},
		{"into empty", ins(M{"into": ""}), "changes[1].into: must not be empty"},
		{"into empty on update", M{"operation": "update_page", "page": "a", "into": ""}, "changes[1].into: must not be empty"},
		{"negative at", ins(M{"at": -1}), "changes[1].at: must be 0 or more"},
		{"negative at on update", M{"operation": "update_page", "page": "a", "at": -5}, "changes[1].at: must be 0 or more"},
		{"fractional at", ins(M{"at": 1.5}), "changes[1].at: must be an integer"},
		{"string at", ins(M{"at": "1"}), "changes[1].at: must be an integer"},

		// Metadata.
		{"empty title", ins(M{"title": ""}), "changes[1].title: must not be empty"},
		{"empty title on update", M{"operation": "update_page", "page": "a", "title": ""}, "changes[1].title: must not be empty"},
		{"long title", ins(M{"title": strings.Repeat("é", MaxTitle+1)}), "changes[1].title: at most 256 characters"},
		{"title not a string", ins(M{"title": 1}), "changes[1].title: must be a string"},
		{"slug with slash", ins(M{"slug": "a/b"}), "changes[1].slug: must not contain"},
		{"slug with space", M{"operation": "update_page", "page": "a", "slug": "a b"}, "changes[1].slug: must not contain"},
		{"slug with hash", ins(M{"slug": "a#b"}), "changes[1].slug: must not contain"},
		{"slug with query", ins(M{"slug": "a?b"}), "changes[1].slug: must not contain"},
		{"slug with backslash", ins(M{"slug": `a\b`}), "changes[1].slug: must not contain"},
		{"long slug", ins(M{"slug": strings.Repeat("a", MaxSlug+1)}), "changes[1].slug: at most 100 characters"},
		{"long emoji", ins(M{"emoji": strings.Repeat("🎉", 51)}), "changes[1].emoji: at most 50 characters"},
		{"long icon", ins(M{"icon": strings.Repeat("i", 51)}), "changes[1].icon: at most 50 characters"},
		{"long description", ins(M{"description": strings.Repeat("d", 1001)}), "changes[1].description: at most 1000 characters"},
		{"condition that does not compile", ins(M{"condition": "visitor.claims.plan =="}), "changes[1].condition: does not compile"},
		{"condition naming an unknown variable", ins(M{"condition": `plan == "pro"`}), "changes[1].condition: does not compile as an expression over visitor.claims: unknown name plan"},
		{"condition too long", ins(M{"condition": strings.Repeat("x", 1025)}), "changes[1].condition: must be 1 to 1024 characters"},
		{"hidden not a bool", ins(M{"hidden": "yes"}), "changes[1].hidden: must be true or false"},
		{"noIndex not a bool", M{"operation": "update_page", "page": "a", "noIndex": 1}, "changes[1].noIndex: must be true or false"},

		// Refs.
		{"empty ref", ins(M{"ref": ""}), "changes[1].ref: must not be empty"},
		{"ref with slash", ins(M{"ref": "a/b"}), "changes[1].ref: must be at most 256 characters without"},
		{"ref with bracket", ins(M{"ref": "a)"}), "changes[1].ref: must be at most 256"},
		{"ref with space", ins(M{"ref": "a b"}), "changes[1].ref: must be at most 256"},
		{"ref with hash", ins(M{"ref": "a#b"}), "changes[1].ref: must be at most 256"},
		{"long ref", ins(M{"ref": strings.Repeat("r", 257)}), "changes[1].ref: must be at most 256"},

		// Revert.
		{"empty revision", M{"operation": "revert_page", "page": "a", "revision": ""}, "changes[1].revision: must not be empty"},
		{"block", M{"operation": "revert_page", "page": "a", "block": []string{"b1"}}, "changes[1].block: reverting single blocks is not supported"},
		{"block not an array", M{"operation": "revert_page", "page": "a", "block": "b1"}, "changes[1].block: must be an array"},

		// Files.
		{"no files", M{"operation": "insert_files"}, "changes[1].files: required"},
		{"null files", M{"operation": "insert_files", "files": nil}, "changes[1].files: required"},
		{"empty files", M{"operation": "insert_files", "files": []M{}}, "changes[1].files: at least one file is required"},
		{"files not an array", M{"operation": "insert_files", "files": M{}}, "changes[1].files: must be an array"},
		{"too many files", M{"operation": "insert_files", "files": repeat(MaxFilesPerOp+1, file(nil))}, "changes[1].files: at most 20 files per change"},
		{"null file", filesChange(file(nil), nil), "changes[1].files[1].name: required"},
		{"file a number", M{"operation": "insert_files", "files": []any{file(nil), 3}}, "changes[1].files[1]: must be an object"},
		{"file unknown field", filesChange(file(nil), file(M{"size": 3})), "changes[1].files[1].size: unknown field"},
		{"file name missing", filesChange(file(M{"name": nil})), "changes[1].files[0].name: required"},
		{"file name empty", filesChange(file(M{"name": ""})), "changes[1].files[0].name: required"},
		{"file name not a string", filesChange(file(M{"name": 3})), "changes[1].files[0].name: must be a string"},
		{"file name too long", filesChange(file(M{"name": strings.Repeat("n", MaxFileName+1)})), "changes[1].files[0].name: at most 256 characters"},
		{"url and base64", filesChange(file(nil), file(M{"base64": "eA==", "contentType": "text/plain"})), "changes[1].files[1]: set exactly one of url and base64"},
		{"neither url nor base64", filesChange(file(M{"url": nil})), "changes[1].files[0]: set exactly one of url and base64"},
		{"base64 without contentType", filesChange(file(M{"url": nil, "base64": "eA=="})), "changes[1].files[0].contentType: required with base64"},
		{"base64 with empty contentType", filesChange(file(M{"url": nil, "base64": "eA==", "contentType": ""})), "changes[1].files[0].contentType: required with base64"},
		{"bad base64", filesChange(file(M{"url": nil, "base64": "not base64!", "contentType": "text/plain"})), "changes[1].files[0].base64: not valid base64"},
		{"unpadded base64", filesChange(file(M{"url": nil, "base64": "eA", "contentType": "text/plain"})), "changes[1].files[0].base64: not valid base64"},
		{"base64 too big", filesChange(file(M{"url": nil, "base64": big, "contentType": "application/octet-stream"})), "changes[1].files[0].base64: at most 1048576 bytes once decoded"},
		{"ftp url", filesChange(file(M{"url": "ftp://example.com/a"})), "changes[1].files[0].url: must be an http(s) URL"},
		{"relative url", filesChange(file(M{"url": "/a.png"})), "changes[1].files[0].url: must be an http(s) URL"},
		{"url without host", filesChange(file(M{"url": "https:///a.png"})), "changes[1].files[0].url: must be an http(s) URL"},
		{"data url", filesChange(file(M{"url": "data:image/png;base64,eA=="})), "changes[1].files[0].url: must be an http(s) URL"},
		{"url too long", filesChange(file(M{"url": "https://example.com/" + strings.Repeat("a", MaxURL)})), "changes[1].files[0].url: must be an http(s) URL of at most 2048 characters"},
		{"file ref empty", filesChange(file(M{"ref": ""})), "changes[1].files[0].ref: must not be empty"},
		{"file ref with slash", filesChange(file(nil), file(M{"ref": "img/a"})), "changes[1].files[1].ref: must be at most 256"},

		// Not an object at all.
		{"change a string", nil, "changes[1]: must be an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var second any = tc.change
			if tc.change == nil {
				second = "delete_page"
			}
			b, err := json.Marshal(M{"changes": []any{del, second, del}})
			if err != nil {
				t.Fatal(err)
			}
			parseErr(t, string(b), tc.want)
		})
	}
}

func TestParseChanges(t *testing.T) {
	changes := mustParse(t, `{"changes": [
		{"operation": "insert_page", "ref": "intro", "into": "p1", "at": 0, "title": "Intro", "slug": "intro",
		 "emoji": "", "icon": "gear", "description": "d", "condition": "visitor.claims.c", "hidden": true, "noIndex": false,
		 "noRobotsIndex": true, "document": {"markdown": "# Intro\n"}},
		{"operation": "insert_page", "document": {}},
		{"operation": "update_page", "page": "p2", "into": null},
		{"operation": "update_page", "page": "p2", "into": "p3", "at": 2, "title": null},
		{"operation": "update_page", "page": "p2", "document": {"markdown": null}},
		{"operation": "update_page", "page": "p2", "slug": ""},
		{"operation": "delete_page", "page": "p4"},
		{"operation": "revert_page", "page": "p5"},
		{"operation": "revert_page", "page": "p5", "revision": "r1"},
		{"operation": "insert_files", "files": [
			{"ref": "logo", "name": "logo.png", "base64": "aGk=", "contentType": "image/png"},
			{"name": "a.pdf", "url": "http://example.com/a.pdf", "contentType": "application/pdf"},
			{"name": "empty", "base64": "", "contentType": "text/plain"}
		]}
	]}`)
	if len(changes) != 10 {
		t.Fatalf("%d changes, want 10", len(changes))
	}
	c := changes[0]
	if c.Op != OpInsertPage || c.Ref != "intro" || c.Page != "" || c.Into != "p1" || !c.IntoSet || c.At == nil || *c.At != 0 ||
		*c.Title != "Intro" || *c.Slug != "intro" || *c.Emoji != "" || *c.Icon != "gear" || *c.Description != "d" ||
		*c.Condition != "visitor.claims.c" || !*c.Hidden || *c.NoIndex || !*c.NoRobotsIndex || *c.Markdown != "# Intro\n" {
		t.Errorf("change 0 = %+v", c)
	}
	c = changes[1]
	if c.Op != OpInsertPage || c.IntoSet || c.At != nil || c.Title != nil || c.Slug != nil || c.Markdown == nil || *c.Markdown != "" {
		t.Errorf("change 1 = %+v", c)
	}
	if c := changes[2]; c.Op != OpUpdatePage || c.Page != "p2" || !c.IntoSet || c.Into != "" || c.At != nil || c.Markdown != nil {
		t.Errorf("change 2 = %+v", c)
	}
	if c := changes[3]; !c.IntoSet || c.Into != "p3" || c.At == nil || *c.At != 2 || c.Title != nil {
		t.Errorf("change 3 = %+v", c)
	}
	if c := changes[4]; c.Markdown == nil || *c.Markdown != "" {
		t.Errorf("change 4 = %+v", c)
	}
	if c := changes[5]; c.Slug == nil || *c.Slug != "" || c.IntoSet {
		t.Errorf("change 5 = %+v", c)
	}
	if c := changes[6]; c.Op != OpDeletePage || c.Page != "p4" {
		t.Errorf("change 6 = %+v", c)
	}
	if c := changes[7]; c.Op != OpRevertPage || c.Page != "p5" || c.Revision != "" {
		t.Errorf("change 7 = %+v", c)
	}
	if c := changes[8]; c.Revision != "r1" {
		t.Errorf("change 8 = %+v", c)
	}
	files := changes[9].Files
	want := []FileInput{
		{Ref: "logo", Name: "logo.png", ContentType: "image/png", Data: []byte("hi")},
		{Name: "a.pdf", ContentType: "application/pdf", URL: "http://example.com/a.pdf"},
		{Name: "empty", ContentType: "text/plain", Data: []byte{}},
	}
	if changes[9].Op != OpInsertFiles || len(files) != len(want) {
		t.Fatalf("change 9 = %+v", changes[9])
	}
	for i, f := range files {
		w := want[i]
		if f.Ref != w.Ref || f.Name != w.Name || f.ContentType != w.ContentType || f.URL != w.URL ||
			!bytes.Equal(f.Data, w.Data) || (f.Data == nil) != (w.Data == nil) || f.File != nil {
			t.Errorf("file %d = %+v, want %+v", i, f, w)
		}
	}
}

func TestParseLimits(t *testing.T) {
	ins := func(k string, v any) string { return batch(M{"operation": "insert_page", "document": M{}, k: v}) }
	mustParse(t, ins("title", strings.Repeat("é", MaxTitle)))
	mustParse(t, ins("slug", strings.Repeat("a", MaxSlug)))
	mustParse(t, ins("slug", strings.Repeat("é", MaxSlug))) // characters, not bytes
	mustParse(t, ins("ref", strings.Repeat("r", 256)))
	mustParse(t, ins("emoji", strings.Repeat("🎉", 50)))
	mustParse(t, ins("description", strings.Repeat("é", 1000)))
	mustParse(t, ins("at", 1000))
	mustParse(t, ins("document", md(strings.Repeat("x", MaxMarkdownSize))))

	f := M{"name": strings.Repeat("é", MaxFileName), "contentType": "application/octet-stream",
		"base64": base64.StdEncoding.EncodeToString(make([]byte, MaxInlineFile))}
	changes := mustParse(t, batch(M{"operation": "insert_files", "files": []M{f}}))
	if len(changes[0].Files[0].Data) != MaxInlineFile {
		t.Errorf("decoded %d bytes, want %d", len(changes[0].Files[0].Data), MaxInlineFile)
	}
	url := M{"name": "u", "url": "https://example.com/" + strings.Repeat("a", MaxURL-len("https://example.com/"))}
	changes = mustParse(t, batch(M{"operation": "insert_files", "files": repeat(MaxFilesPerOp, url)}))
	if len(changes[0].Files) != MaxFilesPerOp {
		t.Errorf("%d files, want %d", len(changes[0].Files), MaxFilesPerOp)
	}
}

// FuzzParse checks that Parse never panics, that what it accepts is made of
// known operations, and that applying an accepted batch to a small tree
// either fails as invalid, naming the change, or gives a sound tree.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"changes": []}`, `{"changes": [null]}`, `{"changes": [1]}`,
		batch(M{"operation": "insert_page", "title": "A", "document": md("# A\n\n[b](./b.md) ![l](./logo)")},
			M{"operation": "insert_page", "ref": "b", "into": "p-guides", "at": 1, "document": md("---\ntitle: B\n---\n[home](../README.md)")},
			filesChange(M{"ref": "logo", "name": "logo.png", "base64": "aGk=", "contentType": "image/png"})),
		batch(M{"operation": "update_page", "page": "p-install", "into": nil, "at": 0, "slug": "home"}),
		batch(M{"operation": "update_page", "page": "p-guides", "into": "p-install"}),
		batch(M{"operation": "update_page", "page": "p-config", "into": "p-api", "at": 0, "title": "C", "document": M{}}),
		batch(M{"operation": "update_page", "page": "p-install", "slug": "x"}, M{"operation": "insert_page", "into": "p-guides", "slug": "install", "document": M{}},
			M{"operation": "revert_page", "page": "p-install"}),
		batch(M{"operation": "delete_page", "page": "p-guides"}, M{"operation": "revert_page", "page": "p-config"},
			M{"operation": "revert_page", "page": "p-install", "revision": "r1"}),
		batch(M{"operation": "insert_page", "ref": "x", "document": M{}}, M{"operation": "delete_page", "page": "x"},
			M{"operation": "update_page", "page": "x", "title": "t"}),
		batch(M{"operation": "insert_files", "files": []M{{"name": "a", "url": "https://example.com/a"}}}),
		batch(M{"operation": "revert_page", "page": "p-home", "block": []string{"b"}}),
		batch(M{"operation": "insert_page", "document": M{"document": M{}}}),
	} {
		f.Add([]byte(s))
	}
	ops := []string{OpInsertPage, OpUpdatePage, OpDeletePage, OpRevertPage, OpInsertFiles}
	f.Fuzz(func(t *testing.T, body []byte) {
		changes, err := Parse(body)
		if err != nil {
			if quire.ErrorCode(err) != quire.CodeInvalid {
				t.Fatalf("Parse error %v is not invalid", err)
			}
			if changes != nil {
				t.Fatal("Parse returned changes with an error")
			}
			return
		}
		if len(changes) == 0 || len(changes) > MaxChanges {
			t.Fatalf("Parse accepted %d changes", len(changes))
		}
		for i, c := range changes {
			if !slices.Contains(ops, c.Op) {
				t.Fatalf("change %d has operation %q", i, c.Op)
			}
			if (c.Op == OpInsertFiles) != (len(c.Files) > 0) {
				t.Fatalf("change %d (%s) has %d files", i, c.Op, len(c.Files))
			}
			if c.Op == OpInsertPage && c.Markdown == nil {
				t.Fatalf("change %d inserts a page without a document", i)
			}
		}
		store(changes)
		o := options()
		r1 := fixture()
		r1.Pages["p-install"].Slug = "home"
		r1.Root = append(r1.Root, "p-old")
		r1.Pages["p-old"] = &content.Page{ID: "p-old", Title: "Old", Slug: "guides", Kind: content.KindDocument}
		o.Trees = map[string]*content.Tree{"r1": r1}
		tree := fixture()
		res, err := Apply(tree, changes, o)
		if err != nil {
			if quire.ErrorCode(err) != quire.CodeInvalid {
				t.Fatalf("Apply error %v is not invalid", err)
			}
			if msg := quire.ErrorMessage(err); !strings.HasPrefix(msg, "changes[") {
				t.Fatalf("Apply error %q does not name its change", msg)
			}
			return
		}
		if err := treeProblem(res.Tree); err != nil {
			t.Fatalf("Apply gave a bad tree: %v", err)
		}
		seen := map[string]bool{}
		for _, oc := range res.Changes {
			if seen[oc.PageID] {
				t.Fatalf("page %s has two outcomes", oc.PageID)
			}
			seen[oc.PageID] = true
			_, exists := res.Tree.Pages[oc.PageID]
			if exists == (oc.Kind == DeletedPage) {
				t.Fatalf("outcome %+v, page exists: %v", oc, exists)
			}
		}
		for _, p := range res.Tree.Pages {
			if p.Kind == content.KindGroup && p.Markdown != "" {
				t.Fatalf("group %s has markdown", p.ID)
			}
		}
	})
}

func TestParseJSONDocument(t *testing.T) {
	body := `{"changes":[{"operation":"insert_page","document":{"document":{"object":"document","data":{},"nodes":[
		{"object":"block","type":"heading-1","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Hello","marks":[]}]}]},
		{"object":"block","type":"paragraph","data":{},"nodes":[{"object":"text","leaves":[{"object":"leaf","text":"Body","marks":[{"object":"mark","type":"bold"}]}]}]}]}}}]}`
	changes, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := *changes[0].Markdown, "# Hello\n\n**Body**\n"; got != want {
		t.Errorf("markdown %q, want %q", got, want)
	}
}

// TestParseLineEndings: CRLF and lone CR line endings are stored as LF, so
// that the same page written on any system reads, diffs and merges alike.
func TestParseLineEndings(t *testing.T) {
	for _, md := range []string{"# T\r\n\r\nOne\r\nTwo\r\n", "# T\r\rOne\rTwo\r", "# T\n\nOne\nTwo\n"} {
		body, _ := json.Marshal(M{"changes": []M{{"operation": "insert_page", "document": M{"markdown": md}}}})
		if got := mustParse(t, string(body))[0].Markdown; got == nil || *got != "# T\n\nOne\nTwo\n" {
			t.Errorf("Parse(%q) markdown = %v", md, got)
		}
	}
}

// TestParseDocumentBounds: a document past render's bounds is refused,
// naming the field as the batch does (security findings 3 and 6); the bounds themselves are
// tested in render.
func TestParseDocumentBounds(t *testing.T) {
	ins := func(doc M) string { return batch(M{"operation": "insert_page", "document": doc}) }
	quotes := strings.Repeat(">", 6000) + " x\n"
	table := "|a|b|c|d|\n|-|-|-|-|\n" + strings.Repeat("|1|2|3|4|\n", 80800)
	parseErr(t, ins(md(quotes)), "changes[0].document: markdown: blockquotes and lists may be nested at most 100 levels deep")
	parseErr(t, ins(md(table)), "changes[0].document: markdown: tables may hold at most 20000 cells")
	parseErr(t, batch(M{"operation": "insert_page", "document": md("# A\n")}, M{"operation": "update_page", "page": "p", "document": md("```\n" + strings.Repeat("\n", 200000) + "```\n")}),
		"changes[1].document: markdown: may hold at most 100000 elements")
	var doc any = M{"object": "block", "type": "paragraph", "nodes": []any{M{"object": "text", "leaves": []any{M{"object": "leaf", "text": "x"}}}}}
	for range 150 {
		doc = M{"object": "block", "type": "blockquote", "nodes": []any{doc}}
	}
	parseErr(t, ins(M{"document": M{"object": "document", "nodes": []any{doc}}}), "changes[0].document: document: blockquotes and lists may be nested")
	mustParse(t, ins(md(strings.Repeat(">", 100)+" x\n")))
}

// TestParseJSONDocumentBounds: a JSON document past the bounds is refused
// while it is read, naming the change, wherever it is in the batch and
// however its names are spelt; the bounds themselves are tested in render.
func TestParseJSONDocumentBounds(t *testing.T) {
	leaves := func(n int) M {
		ls := repeat(n, M{"object": "leaf", "text": "word ", "marks": []any{}})
		return M{"object": "document", "data": M{}, "nodes": []any{M{"object": "block", "type": "paragraph", "nodes": []any{M{"object": "text", "leaves": ls}}}}}
	}
	over := leaves(render.MaxDocumentNodes)
	first := M{"operation": "insert_page", "title": "A", "document": md("# A\n")}
	parseErr(t, batch(first, M{"operation": "insert_page", "document": M{"document": over}}), "changes[1].document.document: more than 100000 elements")
	parseErr(t, `{"Changes":[{"Document":{"Document":`+string(must(json.Marshal(over)))+`}, "operation":"insert_page"}]}`, "changes[0].document.document: more than 100000 elements")
	parseErr(t, batch(M{"operation": "insert_page", "document": M{"document": M{"object": "document", "data": M{"x": slices.Repeat([]int{0}, render.MaxJSONValues)}}}}), "changes[0].document.document: more than 800000 JSON values")
	if _, err := Parse([]byte(batch(first, M{"operation": "insert_page", "document": M{"document": leaves(render.MaxDocumentNodes - 1)}}))); err != nil {
		t.Errorf("100,000 elements: %v", err)
	}
	// Not a document where one may be: left to the decoding.
	parseErr(t, `{"changes":[{"operation":"insert_page","document":{"document":[1,`, "body: ")
	parseErr(t, `{"changes":[{"operation":"insert_page","document":{"document":{"object":"document","nodes":[]},"markdown":"x"}}]}`, "changes[0].document: must be")
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestParseBase64InPlace: base64 is decoded from the body's bytes, escapes
// and all.
func TestParseBase64InPlace(t *testing.T) {
	changes := mustParse(t, `{"changes":[{"operation":"insert_files","files":[`+
		`{"name":"a","contentType":"text/plain","base64":"aGk="},`+
		`{"name":"b","contentType":"text/plain","base64":"\u0061Gk\u003d"},`+
		`{"name":"c","contentType":"text/plain","base64":"\/\/8="}]}]}`)
	for i, want := range []string{"hi", "hi", "\xff\xff"} {
		if got := string(changes[0].Files[i].Data); got != want {
			t.Errorf("file %d: %q, want %q", i, got, want)
		}
	}
	file := func(b64 string) string {
		return `{"changes":[{"operation":"insert_files","files":[{"name":"a","contentType":"text/plain","base64":` + b64 + `}]}]}`
	}
	parseErr(t, file(`3`), "changes[0].files[0].base64: must be a string")
	parseErr(t, file(`null`), "changes[0].files[0]: set exactly one of url and base64")
	parseErr(t, file(`"\u0061"`), "changes[0].files[0].base64: not valid base64")
}
