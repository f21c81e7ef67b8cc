package wire

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/render"
)

// The request bodies of change requests, their reviews and reviewers, named
// after the reference's operations.

// MaxReviewers bounds the users asked to review at once.
const MaxReviewers = 50

// CreateChangeRequest is the body of POST S/change-requests, the
// reference's createChangeRequest.
type CreateChangeRequest struct {
	Subject *string `json:"subject"`
}

// Validate checks the subject when given.
func (b *CreateChangeRequest) Validate() error {
	if b.Subject == nil {
		return nil
	}
	return quire.CheckChangeRequestSubject(*b.Subject)
}

// UpdateChangeRequest is the body of PATCH S/change-requests/{id}, the
// reference's updateChangeRequestById.
type UpdateChangeRequest struct {
	Subject     *string         `json:"subject"`
	Description json.RawMessage `json:"description"`
	Status      *string         `json:"status"`

	description *string // the description's markdown, once validated
}

// Validate checks subject, description, then status: merging is not a
// status to set.
func (b *UpdateChangeRequest) Validate() error {
	var err error
	if b.description, err = checkSubjectAndDescription(b.Subject, b.Description); err != nil {
		return err
	}
	if b.Status != nil {
		if st, ok := quire.ParseChangeRequestStatus(*b.Status); !ok || st == quire.StatusMerged {
			return quire.Errorf(quire.CodeInvalid, "status: must be draft, open or archived (merging is POST …/merge)")
		}
	}
	return nil
}

// DescriptionMarkdown is the markdown of a validated b's description, nil
// when absent.
func (b *UpdateChangeRequest) DescriptionMarkdown() *string { return b.description }

// NewStatus is the status a validated b sets, nil when absent.
func (b *UpdateChangeRequest) NewStatus() *quire.ChangeRequestStatus {
	if b.Status == nil {
		return nil
	}
	st, _ := quire.ParseChangeRequestStatus(*b.Status)
	return &st
}

// checkSubjectAndDescription checks a change request's subject and
// description as PATCH CR and POST CR/requested-reviewers take them (either
// may be absent), and returns the description's markdown (nil if absent).
func checkSubjectAndDescription(subject *string, description json.RawMessage) (*string, error) {
	if subject != nil {
		if err := quire.CheckChangeRequestSubject(*subject); err != nil {
			return nil, err
		}
	}
	if description == nil {
		return nil, nil
	}
	md, err := descriptionMarkdown(description)
	if err != nil {
		return nil, err
	}
	return &md, nil
}

// descriptionMarkdown converts a PATCH's description, the reference's
// JSONDocument, to the markdown it is kept as, by the path of a page's
// document (edit.DocumentMarkdown): within the same bounds, refused with 400
// naming description. The reference does not allow null; a document with
// no nodes clears the description.
func descriptionMarkdown(raw json.RawMessage) (string, error) {
	if !bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) { // null included
		return "", quire.Errorf(quire.CodeInvalid, "description: must be a JSON document (one with no nodes clears it)")
	}
	doc, err := DecodeDocument("description", raw)
	if err != nil {
		return "", err
	}
	return edit.DocumentMarkdown("description", doc)
}

// DecodeDocument decodes raw, a JSON document given in field, once
// render.CheckDocumentJSON has counted it within a page's bounds (decoded
// first, a document of many small nodes took gigabytes); nil when raw is
// absent or null. Refusals name field.
func DecodeDocument(field string, raw json.RawMessage) (map[string]any, error) {
	if quire.IsNull(raw) {
		return nil, nil
	}
	if err := render.CheckDocumentJSON(raw); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "%s: %s", field, quire.ErrorMessage(err))
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "%s: must be an object", field)
	}
	return doc, nil
}

// SubmitChangeRequestReview is the body of POST CR/reviews, the reference's
// submitChangeRequestReview.
type SubmitChangeRequestReview struct {
	Status  *string         `json:"status"`
	Comment json.RawMessage `json:"comment"` // decoded by Validate within bounds

	status   quire.ReviewStatus
	markdown string
}

// Validate checks status, then the comment: the reference's Document, or
// {"markdown": …} as comment bodies take it.
func (b *SubmitChangeRequestReview) Validate() (err error) {
	if b.Status == nil {
		return quire.Errorf(quire.CodeInvalid, "status: is required")
	}
	if b.status, err = quire.ParseReviewStatus("status", *b.Status); err != nil {
		return err
	}
	comment, err := DecodeDocument("comment", b.Comment)
	if err != nil || comment == nil {
		return err
	}
	if md, ok := comment["markdown"].(string); ok {
		b.markdown = render.NormalizeLineEndings(md)
		return quire.CheckCommentBody("comment.markdown", b.markdown)
	}
	if b.markdown, err = render.Markdown(comment); err != nil {
		return quire.Errorf(quire.CodeInvalid, "comment.%s", err.Error())
	}
	return quire.CheckCommentBody("comment", b.markdown)
}

// Review is a validated b: its status and the comment's markdown ("" for
// none).
func (b *SubmitChangeRequestReview) Review() (quire.ReviewStatus, string) {
	return b.status, b.markdown
}

// RequestReviewersForChangeRequest is the body of POST
// CR/requested-reviewers, the reference's requestReviewersForChangeRequest.
// Subject and description, as PATCH CR takes them, also update the change
// request.
type RequestReviewersForChangeRequest struct {
	Users       []string        `json:"users"`
	Subject     *string         `json:"subject"`
	Description json.RawMessage `json:"description"`

	description *string // the description's markdown, once validated
}

// Validate checks users (1 to MaxReviewers ids), then subject and
// description.
func (b *RequestReviewersForChangeRequest) Validate() error {
	if len(b.Users) == 0 {
		return quire.Errorf(quire.CodeInvalid, "users: must list at least one user id")
	}
	if len(b.Users) > MaxReviewers {
		return quire.Errorf(quire.CodeInvalid, "users: must list at most %d users", MaxReviewers)
	}
	for i, u := range b.Users {
		if err := quire.CheckLen(fmt.Sprintf("users[%d]", i), u, 1, 128); err != nil {
			return err
		}
	}
	var err error
	b.description, err = checkSubjectAndDescription(b.Subject, b.Description)
	return err
}

// DescriptionMarkdown is the markdown of a validated b's description, nil
// when absent.
func (b *RequestReviewersForChangeRequest) DescriptionMarkdown() *string { return b.description }
