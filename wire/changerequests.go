package wire

import (
	"encoding/json"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
)

// ChangeRequest is how the API shows a change request.
type ChangeRequest struct {
	Object                 string          `json:"object"`
	ID                     string          `json:"id"`
	Number                 int             `json:"number"`
	Status                 string          `json:"status"`
	Subject                string          `json:"subject"`
	Description            json.RawMessage `json:"description,omitempty"`
	CreatedBy              User            `json:"createdBy"`
	CreatedAt              string          `json:"createdAt"`
	UpdatedAt              string          `json:"updatedAt"`
	Space                  string          `json:"space"`
	Revision               string          `json:"revision"`
	RevisionInitial        string          `json:"revisionInitial"`
	RevisionMergedAncestor string          `json:"revisionMergedAncestor,omitempty"`
	RevisionMerged         string          `json:"revisionMerged,omitempty"`
	Comments               int             `json:"comments"`
	Outdated               bool            `json:"outdated"`
	URLs                   URLs            `json:"urls"`
}

// ChangeRequest renders a change request of sp. Contract §2: outdated
// when the space's revision is no longer the request's base.
func (l Links) ChangeRequest(sp *quire.Space, c *quire.ChangeRequest) ChangeRequest {
	return ChangeRequest{
		Object: "change-request", ID: c.ID, Number: c.Number, Status: string(c.Status), Subject: c.Subject,
		CreatedBy: l.User(&c.CreatedBy), CreatedAt: Time(c.CreatedAt), UpdatedAt: Time(c.UpdatedAt),
		Space: c.SpaceID, Revision: c.RevisionID, RevisionInitial: c.RevisionInitial,
		RevisionMergedAncestor: c.RevisionMergedAncestor, RevisionMerged: c.RevisionMerged, Comments: c.Comments,
		Outdated:    c.Status != quire.StatusMerged && sp.RevisionID != c.Base(),
		Description: Description(c.Description),
		URLs: URLs{
			Location: l.API("/spaces/" + c.SpaceID + "/change-requests/" + c.ID),
			App:      quire.AppChangeRequestURL(l.PublicURL, c.SpaceID, c.ID),
		},
	}
}

// Description is a change request's description as the reference's
// JSONDocument, built as a page's document is (render.DocumentJSON), or nil
// (left out) for none. Its links are not resolved: a description belongs to
// no page. Every description was checked within render's bounds when
// written (edit.Markdown), so DocumentJSON does not refuse it; should the
// bounds ever shrink, one past them is left out rather than failing every
// answer that holds the request.
func Description(markdown string) json.RawMessage {
	if markdown == "" {
		return nil
	}
	doc, err := render.DocumentJSON(markdown, nil)
	if err != nil {
		return nil
	}
	return doc
}

// RequestedReviewer is how the API shows a reviewer asked to review a
// change request.
type RequestedReviewer struct {
	Object      string `json:"object"`
	Kind        string `json:"kind"`
	User        User   `json:"user"`
	Revision    string `json:"revision"`
	RequestedBy User   `json:"requestedBy"`
	CreatedAt   string `json:"createdAt"`
}

// RequestedReviewer shows a reviewer asked to review a change request as
// the API answers it.
func (l Links) RequestedReviewer(w *quire.RequestedReviewer) RequestedReviewer {
	return RequestedReviewer{Object: "change-request-requested-reviewer", Kind: "user", User: l.User(&w.User),
		Revision: w.RevisionID, RequestedBy: l.User(&w.RequestedBy), CreatedAt: Time(w.CreatedAt)}
}

// Contributor is how the API shows a user who contributed to a change
// request.
type Contributor struct {
	UpdatedAt  string `json:"updatedAt"`
	Count      int    `json:"count"`
	User       User   `json:"user"`
	ActionType string `json:"actionType"`
}

// Review is how the API shows a review of a change request.
type Review struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Revision    string          `json:"revision"`
	Reviewer    User            `json:"reviewer"`
	RequestedBy *User           `json:"requestedBy,omitempty"`
	Status      string          `json:"status"`
	Outdated    bool            `json:"outdated"`
	Comment     json.RawMessage `json:"comment,omitempty"`
	CreatedAt   string          `json:"createdAt"`
	UpdatedAt   string          `json:"updatedAt"`
	URLs        Location        `json:"urls"`
}

// Review renders review v of a change request of space spaceID, with
// comment its comment as the request's comment list shows it (nil for none).
func (l Links) Review(spaceID string, v *quire.Review, comment json.RawMessage) Review {
	out := Review{Object: "change-request-review", ID: v.ID, Revision: v.RevisionID, Reviewer: l.User(&v.Reviewer),
		Status: string(v.Status), Outdated: v.Outdated, Comment: comment,
		CreatedAt: Time(v.CreatedAt), UpdatedAt: Time(v.UpdatedAt),
		URLs: Location{Location: l.API("/spaces/" + spaceID + "/change-requests/" + v.ChangeRequestID + "/reviews/" + v.ID)}}
	if v.RequestedBy != nil {
		u := l.User(v.RequestedBy)
		out.RequestedBy = &u
	}
	return out
}

// MergeResult is how the API shows the answer of POST CR/merge: the
// revision merged.
type MergeResult struct {
	Revision string `json:"revision"`
	Result   string `json:"result"`
}
