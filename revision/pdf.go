package revision

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/pdf"
)

// OpenPrinted opens what a PDF prints, or a signed file link serves, by
// ids, without a reader's permission (a signature stands for it): the
// content of space spaceID, or of its change request changeRequest (""
// for none), at revision rev. A deleted space is not found.
func (r *Reader) OpenPrinted(ctx context.Context, spaceID, rev, changeRequest string) (*View, error) {
	sp, err := r.db.Space(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	if !sp.DeletedAt.IsZero() {
		return nil, quire.Errorf(quire.CodeNotFound, "space not found")
	}
	var c *quire.ChangeRequest
	if changeRequest != "" {
		if c, err = r.db.ChangeRequest(ctx, sp.ID, changeRequest); err != nil {
			return nil, err
		}
	}
	return r.Open(ctx, sp, rev, c)
}

// CheckPrintedPage refuses (404) page id as where a PDF of v starts: a
// page not placed in v's tree is not found.
func (v *View) CheckPrintedPage(id string) error {
	if _, placed := v.Tree.Parent(id); !placed || v.Page(id) == nil {
		return quire.Errorf(quire.CodeNotFound, "page not found")
	}
	return nil
}

// PDFSource is what package pdf prints of v: titled by its space, and for
// a change request's content subtitled by it, its files read from blobs,
// its pages linked to the app at base (the public URL, no trailing slash).
func (v *View) PDFSource(base string, blobs blob.Store) pdf.Source {
	src := pdf.Source{
		Title: v.Space.Title, Revision: v.Revision.ID, Date: v.Revision.CreatedAt,
		Tree: v.Tree, Resolver: v.Resolver(),
		OpenFile: func(ctx context.Context, f *content.File) (io.ReadCloser, error) {
			if blobs == nil {
				return nil, errors.New("no blob store")
			}
			return blobs.Open(ctx, f.Blob)
		},
		PageURL: func(id, anchor string) string { return v.Space.PageAppURL(base, v.Path(id), anchor) },
	}
	if c := v.ChangeRequest; c != nil {
		src.Subtitle = "Change request #" + strconv.Itoa(c.Number)
		if c.Subject != "" {
			src.Subtitle += ": " + c.Subject
		}
	}
	return src
}
