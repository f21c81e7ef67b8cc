package wire

import (
	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
)

// BatchResult is the answer of an authoring batch that made change
// request c of space sp what it is: each change's outcome, a page it left
// linked to the page's content in c, and the files it inserted.
func (l Links) BatchResult(sp *quire.Space, c *quire.ChangeRequest, result *edit.Result) BatchResult {
	res := BatchResult{ChangeRequest: l.ChangeRequest(sp, c), Changes: []BatchOutcome{}, InsertedFiles: []File{}}
	for _, o := range result.Changes {
		j := BatchOutcome{Object: o.Kind, Ref: o.Ref, Page: o.PageID}
		if o.Kind != edit.DeletedPage {
			j.Page = PageRef{Object: "page", ID: o.PageID, URLs: URLs{
				Location: l.API("/spaces/" + sp.ID + "/change-requests/" + c.ID + "/content/page/" + o.PageID),
			}}
		}
		res.Changes = append(res.Changes, j)
	}
	for _, f := range result.Files {
		res.InsertedFiles = append(res.InsertedFiles, l.RevisionFile(sp.ID, c.RevisionID, f))
	}
	return res
}
