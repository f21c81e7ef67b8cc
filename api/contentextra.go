package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

// The reference's remaining reads of content (issue 19): a page's JSON
// document by page or by document id, a page's meta links, and reusable
// contents. Each reads through the same views, with the same permission
// checks, as the other content reads (content.go).

// viewPage is page pageId of v, or 404.
func viewPage(r *http.Request, v *revision.View) (*content.Page, error) {
	p := v.Page(r.PathValue("pageId"))
	if p == nil {
		return nil, errorf(quire.CodeNotFound, "page not found")
	}
	return p, nil
}

func (s *Server) getPageMetaLinks(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	if _, err := viewPage(r, v); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, wire.MetaLinks{})
}

// documentParams checks the parameters of a document read: evaluated
// (a boolean or deterministic-only) and dereferenced (a boolean or
// reusable-contents). Both change nothing here: Quire's documents hold no
// expressions to evaluate and no reusable contents to inline.
func documentParams(r *http.Request) error {
	for _, p := range []struct{ name, word string }{{"evaluated", "deterministic-only"}, {"dereferenced", "reusable-contents"}} {
		if q := query(r); q.Has(p.name) && q.Get(p.name) == p.word {
			continue
		}
		if _, err := optBoolParam(r, p.name); err != nil {
			return errorf(quire.CodeInvalid, "%s: must be true, false or %s", p.name, p.word)
		}
	}
	return nil
}

// getPageDocument answers a page's body as the reference's JSON document.
// A group has no body, and so no document (the reference gives groups no
// documentId either): 404.
func (s *Server) getPageDocument(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	if err := documentParams(r); err != nil {
		return err
	}
	p, err := viewPage(r, v)
	if err != nil {
		return err
	}
	if p.Kind == content.KindGroup {
		return errorf(quire.CodeNotFound, "page %q is a group and has no document", p.ID)
	}
	return s.writeDocument(w, v, p.ID)
}

// getDocument answers GET S/documents/{documentId}: the document of a page
// of the space's current content, by the documentId its page answers
// (revision.View.DocumentID). A document no page of the current content
// holds any more (edited or removed since) is 404.
func (s *Server) getDocument(w http.ResponseWriter, r *http.Request, v *revision.View) error {
	switch schema := query(r).Get("schema"); {
	case !query(r).Has("schema"), schema == "current", schema == "next":
		// One schema: Quire's documents are the same in both.
	default:
		return errorf(quire.CodeInvalid, "schema: must be current or next")
	}
	id, ok := v.PageOfDocument(r.PathValue("documentId"))
	if !ok {
		return errorf(quire.CodeNotFound, "document not found in the space's current content")
	}
	return s.writeDocument(w, v, id)
}

// writeDocument writes page id's JSON document (revision.View.DocumentAnswer).
func (s *Server) writeDocument(w http.ResponseWriter, v *revision.View, id string) error {
	body, err := v.DocumentAnswer(id)
	if err != nil {
		return err
	}
	return writeRaw(w, http.StatusOK, body)
}

// getReusableContent answers the reference's reusable-content reads, of a
// space, a change request or a revision, and their documents. Quire's
// content has no reusable contents (content.Tree holds pages and files), so
// after the caller's read is checked, every id is one the content does not
// hold: 404, as the reference answers for a missing one.
func (s *Server) getReusableContent(document bool) func(http.ResponseWriter, *http.Request, *revision.View) error {
	return func(w http.ResponseWriter, r *http.Request, v *revision.View) error {
		var err error
		if document {
			err = documentParams(r)
		} else {
			err = metadataParams(r)
		}
		if err != nil {
			return err
		}
		return errorf(quire.CodeNotFound, "reusable content not found")
	}
}

// metadataParams checks metadata and computed, the parameters of reads
// that have no format.
func metadataParams(r *http.Request) error {
	for _, name := range []string{"metadata", "computed"} {
		if _, err := optBoolParam(r, name); err != nil {
			return err
		}
	}
	return nil
}
