package api_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The reference's remaining content reads (issue 19), each answer checked
// against the whole reference document.

// refGet GETs path as token's holder (refCall: checked against the whole
// reference) and wants status.
func refGet(t *testing.T, e *env, token, path string, status int) *response {
	t.Helper()
	res := refCall(t, e, token, "GET", path, nil)
	if status >= 400 {
		res.wantError(t, status)
	}
	return res.want(t, status)
}

type docPageOut struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	DocumentID string `json:"documentId"`
	Document   any    `json:"document"`
}

// compactJSON is b without insignificant space, for comparing answers.
func compactJSON(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatalf("compact %s: %v", b, err)
	}
	return buf.String()
}

func TestContentExtraReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	e.author(t, e.admin.token, cr,
		insertFiles(map[string]any{"ref": "pic", "name": "pic.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(tinyPNG(t, 2, 1))}),
		insertPage("guide", "# Guide\n\nSee [the FAQ](./faq.md) and ![pic](pic).\n"),
		insertPage("faq", "# FAQ\n\nAnswers.\n"),
		insertPage("empty", "# Empty\n"),
	).want(t, http.StatusOK)
	merged := e.readMerge(t, cr)
	rev := sp + "/revisions/" + merged
	var tree revisionOut
	e.readGet(t, e.admin.token, rev, &tree)
	guide, faq, empty, file := tree.Pages[0], tree.Pages[1], tree.Pages[2], tree.Files[0]

	// Files of a revision: the list and each file, as S/content has them.
	var files fileListOut
	refGet(t, e, e.admin.token, rev+"/files?limit=1", http.StatusOK).Decode(t, &files)
	if len(files.Items) != 1 || files.Count != 1 || files.Items[0].ID != file.ID || files.Next != nil {
		t.Errorf("revision files %+v; want the one file %s", files, file.ID)
	}
	fileAnswer := refGet(t, e, e.admin.token, rev+"/files/"+file.ID, http.StatusOK)
	if live := e.call(t, e.admin.token, "GET", sp+"/content/files/"+file.ID, nil).want(t, http.StatusOK); !bytes.Equal(live.Body, fileAnswer.Body) {
		t.Errorf("the revision's file %s, the space's %s", fileAnswer.Body, live.Body)
	}
	refGet(t, e, e.admin.token, rev+"/files/nope", http.StatusNotFound)
	e.call(t, e.admin.token, "GET", rev+"/files?limit=0", nil).wantError(t, http.StatusBadRequest, "limit")
	e.call(t, e.admin.token, "GET", rev+"/files?page=***", nil).wantError(t, http.StatusBadRequest, "page")

	// A page by path, in a revision and in a change request.
	var got docPageOut
	refGet(t, e, e.admin.token, rev+"/path/faq", http.StatusOK).Decode(t, &got)
	if got.ID != faq.ID || got.Title != "FAQ" {
		t.Errorf("revision path faq: %+v, want page %s", got, faq.ID)
	}
	refGet(t, e, e.admin.token, rev+"/path/faq?format=document", http.StatusOK)
	refGet(t, e, e.admin.token, rev+"/path/nowhere", http.StatusNotFound)
	e.call(t, e.admin.token, "GET", rev+"/path/faq?format=html", nil).wantError(t, http.StatusBadRequest, "format")
	e.call(t, e.admin.token, "GET", rev+"/path/faq?cachedMetadata=yes", nil).wantError(t, http.StatusBadRequest, "cachedMetadata")

	// A change request edits the guide and adds a page, unmerged.
	_, cr2 := e.readNewCR(t, spaceID, "More")
	e.author(t, e.admin.token, cr2,
		map[string]any{"operation": "update_page", "page": guide.ID, "document": map[string]any{"markdown": "# Guide\n\nRewritten.\n"}},
		insertPage("next", "# Next\n\nLater.\n"),
	).want(t, http.StatusOK)
	refGet(t, e, e.admin.token, cr2+"/content/path/next", http.StatusOK).Decode(t, &got)
	if got.Title != "Next" {
		t.Errorf("change request path next: %+v", got)
	}
	refGet(t, e, e.admin.token, sp+"/content/path/next", http.StatusNotFound)
	refGet(t, e, e.admin.token, cr2+"/content/path/nowhere", http.StatusNotFound)

	// A page's document in a revision: the page's format=document body.
	var withDoc docPageOut
	e.readGet(t, e.admin.token, rev+"/page/"+guide.ID+"?format=document", &withDoc)
	wantDoc, _ := json.Marshal(withDoc.Document)
	doc := refGet(t, e, e.admin.token, rev+"/page/"+guide.ID+"/document", http.StatusOK)
	if compactJSON(t, doc.Body) != string(wantDoc) {
		t.Errorf("document %s, want the page's %s", doc.Body, wantDoc)
	}
	if refs := refsIn(doc.JSON(t), "link"); len(refs) == 0 || refs[0]["page"] != faq.ID {
		t.Errorf("the guide's link to the FAQ: %v", refs)
	}
	for _, q := range []string{"?evaluated=true", "?evaluated=deterministic-only", "?dereferenced=reusable-contents&evaluated=false"} {
		refGet(t, e, e.admin.token, rev+"/page/"+guide.ID+"/document"+q, http.StatusOK)
	}
	e.call(t, e.admin.token, "GET", rev+"/page/"+guide.ID+"/document?evaluated=yes", nil).wantError(t, http.StatusBadRequest, "evaluated")
	e.call(t, e.admin.token, "GET", rev+"/page/"+guide.ID+"/document?dereferenced=all", nil).wantError(t, http.StatusBadRequest, "dereferenced")
	refGet(t, e, e.admin.token, rev+"/page/nope/document", http.StatusNotFound)
	emptyDoc := refGet(t, e, e.admin.token, rev+"/page/"+empty.ID+"/document", http.StatusOK)
	if diff := cmp.Diff(`{"data":{},"nodes":[],"object":"document"}`, compactJSON(t, sortedJSON(t, emptyDoc.Body))); diff != "" {
		t.Errorf("an empty page's document (-want +got):\n%s", diff)
	}

	// Documents by id: a page answers its documentId, which reads its
	// document in the space while the current content holds that body.
	var live docPageOut
	e.readGet(t, e.admin.token, sp+"/content/page/"+guide.ID, &live)
	if live.DocumentID == "" || !strings.HasPrefix(live.DocumentID, guide.ID+"-") {
		t.Fatalf("the guide's documentId %q", live.DocumentID)
	}
	var emptyPage docPageOut
	e.readGet(t, e.admin.token, sp+"/content/page/"+empty.ID, &emptyPage)
	if emptyPage.DocumentID != "" {
		t.Errorf("an empty page has documentId %q; the reference leaves it out", emptyPage.DocumentID)
	}
	byID := refGet(t, e, e.admin.token, sp+"/documents/"+live.DocumentID, http.StatusOK)
	if !bytes.Equal(byID.Body, doc.Body) {
		t.Errorf("document by id %s, want the page's %s", byID.Body, doc.Body)
	}
	refGet(t, e, e.admin.token, sp+"/documents/"+live.DocumentID+"?schema=next", http.StatusOK)
	e.call(t, e.admin.token, "GET", sp+"/documents/"+live.DocumentID+"?schema=old", nil).wantError(t, http.StatusBadRequest, "schema")
	var edited docPageOut
	e.readGet(t, e.admin.token, cr2+"/content/page/"+guide.ID, &edited)
	if edited.DocumentID == "" || edited.DocumentID == live.DocumentID {
		t.Errorf("the edited guide's documentId %q, the space's %q: want a new one", edited.DocumentID, live.DocumentID)
	}
	for _, id := range []string{edited.DocumentID, "nope", guide.ID, guide.ID + "-0000", faq.ID + strings.TrimPrefix(live.DocumentID, guide.ID)} {
		refGet(t, e, e.admin.token, sp+"/documents/"+id, http.StatusNotFound)
	}
	e.readMerge(t, cr2)
	refGet(t, e, e.admin.token, sp+"/documents/"+edited.DocumentID, http.StatusOK)
	refGet(t, e, e.admin.token, sp+"/documents/"+live.DocumentID, http.StatusNotFound)
	var old docPageOut
	e.readGet(t, e.admin.token, rev+"/page/"+guide.ID, &old)
	if old.DocumentID != live.DocumentID {
		t.Errorf("the old revision's guide has documentId %q, want %q still", old.DocumentID, live.DocumentID)
	}

	// Meta links: Quire's pages have none; an unknown page is 404.
	for _, prefix := range []string{sp + "/content", cr2 + "/content", rev} {
		res := refGet(t, e, e.admin.token, prefix+"/page/"+faq.ID+"/meta-links", http.StatusOK)
		if got := compactJSON(t, res.Body); got != "{}" {
			t.Errorf("meta links %s, want {}", got)
		}
		refGet(t, e, e.admin.token, prefix+"/page/nope/meta-links", http.StatusNotFound)
	}

	// Reusable contents: Quire's content has none, so each is 404, after
	// the parameters are checked.
	for _, p := range []string{sp + "/content/reusable-contents/rc1", cr2 + "/content/reusable-contents/rc1",
		rev + "/reusable-contents/rc1", rev + "/reusable-contents/rc1/document"} {
		refGet(t, e, e.admin.token, p, http.StatusNotFound).wantError(t, http.StatusNotFound, "reusable content not found")
	}
	e.call(t, e.admin.token, "GET", sp+"/content/reusable-contents/rc1?metadata=1", nil).wantError(t, http.StatusBadRequest, "metadata")
	e.call(t, e.admin.token, "GET", rev+"/reusable-contents/rc1/document?evaluated=no", nil).wantError(t, http.StatusBadRequest, "evaluated")

	// Unknown spaces, revisions and change requests are 404.
	for _, p := range []string{"/v1/spaces/nope/revisions/" + merged + "/files", sp + "/revisions/nope/files", sp + "/revisions/nope/path/faq",
		sp + "/revisions/nope/page/" + faq.ID + "/document", sp + "/change-requests/nope/content/path/faq", "/v1/spaces/nope/documents/" + edited.DocumentID,
		sp + "/change-requests/nope/content/page/" + faq.ID + "/meta-links", sp + "/revisions/nope/reusable-contents/rc1"} {
		e.call(t, e.admin.token, "GET", p, nil).wantError(t, http.StatusNotFound)
	}
}

// sortedJSON re-encodes b with its keys sorted, as encoding/json writes maps.
func sortedJSON(t *testing.T, b []byte) []byte {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestContentExtraAccess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	spaceID, cr := e.newChangeRequest(t)
	sp := "/v1/spaces/" + spaceID
	e.author(t, e.admin.token, cr,
		insertFiles(map[string]any{"ref": "pic", "name": "pic.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(tinyPNG(t, 1, 1))}),
		insertPage("guide", "# Guide\n\nText.\n"),
	).want(t, http.StatusOK)
	merged := e.readMerge(t, cr)
	_, cr2 := e.readNewCR(t, spaceID, "Next")
	var page docPageOut
	e.readGet(t, e.admin.token, sp+"/content/path/guide", &page)
	var tree revisionOut
	e.readGet(t, e.admin.token, sp+"/content", &tree)
	rev := sp + "/revisions/" + merged
	paths := []string{
		rev + "/files", rev + "/files/" + tree.Files[0].ID, rev + "/path/guide", rev + "/page/" + page.ID + "/document",
		rev + "/page/" + page.ID + "/meta-links", sp + "/content/page/" + page.ID + "/meta-links", cr2 + "/content/page/" + page.ID + "/meta-links",
		cr2 + "/content/path/guide", sp + "/documents/" + page.DocumentID,
	}
	reusable := []string{sp + "/content/reusable-contents/rc1", cr2 + "/content/reusable-contents/rc1", rev + "/reusable-contents/rc1", rev + "/reusable-contents/rc1/document"}
	reader, guest, outsider := e.addUser(t, "read", "Rita Reader"), e.addUser(t, "guest", "Gil Guest"), e.outsider(t)
	for _, p := range paths {
		admin := refGet(t, e, e.admin.token, p, http.StatusOK)
		if res := refGet(t, e, reader.token, p, http.StatusOK); !bytes.Equal(admin.Body, res.Body) {
			t.Errorf("GET %s: the reader sees %s, the admin %s", p, res.Body, admin.Body)
		}
	}
	for _, p := range append(paths, reusable...) {
		refGet(t, e, outsider.token, p, http.StatusNotFound)
		refGet(t, e, guest.token, p, http.StatusNotFound)
		refGet(t, e, "", p, http.StatusUnauthorized)
	}
	// The outsider's 404 says the space is not found, not the reusable
	// content: what they may not see is not looked into.
	e.call(t, outsider.token, "GET", reusable[0], nil).wantError(t, http.StatusNotFound, "space")
}
