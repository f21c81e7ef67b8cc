package revision

import (
	"errors"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// FileJSON shows file f of v.
func (v *View) FileJSON(l wire.Links, f *content.File) wire.File {
	return l.RevisionFile(v.Space.ID, v.Revision.ID, f)
}

// FileList shows page p of v's files, by name.
func (v *View) FileList(l wire.Links, p store.Page) wire.List[wire.File] {
	list := store.PageOf(v.Index().Files, p, func(f *content.File) store.Cursor { return store.Cursor{Str: f.Name, ID: f.ID} })
	return wire.ListOf(list, func(f *content.File) wire.File { return v.FileJSON(l, f) })
}

// DocumentAnswer is page id's JSON document as an answer, ending with a
// newline. A page past render's bounds, stored before they were checked,
// is quire.CodeInvalid, as with format=document.
func (v *View) DocumentAnswer(id string) ([]byte, error) {
	doc, err := v.Document(id)
	if errors.Is(err, render.ErrDocumentTooLarge) {
		return nil, quire.Errorf(quire.CodeInvalid, "page %q is too large for the document form (more than %d elements); read its markdown instead",
			id, render.MaxDocumentNodes)
	}
	if err != nil {
		return nil, err
	}
	return append(doc[:len(doc):len(doc)], '\n'), nil
}
