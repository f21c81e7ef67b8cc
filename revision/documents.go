package revision

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/quiredocs/quire/content"
)

// The reference names a page's body by a documentId, read with GET
// S/documents/{documentId}. Quire stores bodies by content, so a document's
// id is made of its page's id and the hash of the body: it stays the same
// across revisions while the page's body does not change, names a new
// document when it does, and finds its page without an index.

// documentHashLen is how many hex digits of the body's SHA-256 a document
// id keeps: 80 bits, against collisions among one page's bodies.
const documentHashLen = 20

// DocumentID is the id of the document of page id, "" when the page has
// none: a group, or a page whose body is empty (the reference leaves the
// id out for an empty page).
func (v *View) DocumentID(id string) string {
	p := v.Tree.Pages[id]
	if p == nil || p.Kind == content.KindGroup || p.Markdown == "" {
		return ""
	}
	return documentID(p.ID, p.Markdown)
}

func documentID(pageID, markdown string) string {
	sum := sha256.Sum256([]byte(markdown))
	return pageID + "-" + hex.EncodeToString(sum[:])[:documentHashLen]
}

// PageOfDocument is the page of the view whose document is docID; ok is
// false when no page of the view has that body (the page was edited or
// removed since, or the id was never one).
func (v *View) PageOfDocument(docID string) (pageID string, ok bool) {
	at := strings.LastIndexByte(docID, '-')
	if at < 0 {
		return "", false
	}
	pageID = docID[:at]
	if v.DocumentID(pageID) != docID {
		return "", false
	}
	return pageID, true
}
