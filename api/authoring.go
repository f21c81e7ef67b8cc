package api

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image dimensions of uploaded files
	_ "image/jpeg"
	_ "image/png"
	"mime"
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// MaxBatchBytes bounds a POST CR/content body: 50 changes, files inline
// as base64 (1 MiB each once decoded).
const MaxBatchBytes = 32 << 20

// MaxFetchedFile bounds a file fetched from a URL.
const MaxFetchedFile = 25 << 20

type pageRefJSON struct {
	Object string   `json:"object"`
	ID     string   `json:"id"`
	URLs   urlsJSON `json:"urls"`
}

type batchOutcomeJSON struct {
	Object string `json:"object"`
	Ref    string `json:"ref,omitempty"`
	Page   any    `json:"page"`
}

type batchResultJSON struct {
	ChangeRequest changeRequestJSON  `json:"changeRequest"`
	Changes       []batchOutcomeJSON `json:"changes"`
	InsertedFiles []fileJSON         `json:"insertedFiles"`
}

// editChangeRequestContent applies an authoring batch as one new revision
// of the change request.
func (s *Server) editChangeRequestContent(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	if err := quire.CheckEditable(sp); err != nil {
		return err
	}
	compat, err := boolParam(r, "compat", true)
	if err != nil {
		return err
	}
	body, err := readBody(w, r, MaxBatchBytes)
	if err != nil {
		return err
	}
	if body == nil {
		return errorf(quire.CodeInvalid, "changes: required")
	}
	changes, err := edit.Parse(body)
	if err != nil {
		return err
	}
	if fetchesFiles(changes) {
		done, err := s.startImport(w, sp)
		if err != nil {
			return err
		}
		defer done()
	}
	c, result, err := s.applyBatch(r, sp, c, changes)
	if err != nil {
		return err
	}
	out := s.changeRequestJSON(sp, c)
	if compat {
		return writeJSON(w, http.StatusOK, out)
	}
	v := &view{sp: sp, rev: &store.Revision{ID: c.RevisionID}, tree: result.Tree, s: s}
	res := batchResultJSON{ChangeRequest: out, Changes: []batchOutcomeJSON{}, InsertedFiles: []fileJSON{}}
	for _, o := range result.Changes {
		j := batchOutcomeJSON{Object: o.Kind, Ref: o.Ref, Page: o.PageID}
		if o.Kind != edit.DeletedPage {
			j.Page = pageRefJSON{Object: "page", ID: o.PageID, URLs: urlsJSON{
				Location: s.url("/spaces/" + sp.ID + "/change-requests/" + c.ID + "/content/page/" + o.PageID),
			}}
		}
		res.Changes = append(res.Changes, j)
	}
	for _, f := range result.Files {
		res.InsertedFiles = append(res.InsertedFiles, s.fileJSON(v, f))
	}
	return writeJSON(w, http.StatusOK, res)
}

// applyBatch applies parsed changes to a change request as one new
// revision. Its files are read first but stored only once the batch has
// applied, so that a batch that fails writes no file.
func (s *Server) applyBatch(r *http.Request, sp *quire.Space, c *quire.ChangeRequest, changes []edit.Change) (*quire.ChangeRequest, *edit.Result, error) {
	if err := s.readFiles(r, changes); err != nil {
		return nil, nil, err
	}
	opts := edit.Options{NewID: store.NewID, AppHost: s.appHost(), Trees: map[string]*content.Tree{}}
	var err error
	if _, opts.Base, err = s.db.RevisionTree(r.Context(), sp.ID, c.Base()); err != nil {
		return nil, nil, err
	}
	for i, id := range edit.RevisionsToLoad(changes) {
		_, t, err := s.db.RevisionTree(r.Context(), sp.ID, id)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return nil, nil, errorf(quire.CodeInvalid, "changes: revision %q (revert %d) is not a revision of this space", id, i)
		}
		if err != nil {
			return nil, nil, err
		}
		opts.Trees[id] = t
	}
	var result *edit.Result
	c, err = s.db.EditChangeRequest(r.Context(), sp.ID, c.ID, caller(r.Context()).ID, func(now time.Time, head *content.Tree) (*content.Tree, error) {
		opts.Now = now.UnixMicro()
		res, err := edit.Apply(head, changes, opts)
		if err != nil {
			return nil, err
		}
		// The batch is valid: its files are stored before it commits. If the
		// commit fails, they stay unreferenced until collected.
		if err := s.storeFiles(r.Context(), changes); err != nil {
			return nil, err
		}
		result = res
		return res.Tree, nil
	})
	return c, result, err
}

// fetchesFiles reports whether a batch has files given by URL.
func fetchesFiles(changes []edit.Change) bool {
	for _, c := range changes {
		for _, f := range c.Files {
			if f.URL != "" {
				return true
			}
		}
	}
	return false
}

// readFiles reads the bytes of every file of the batch into its Data,
// fetching those given by URL within the batch's limits (ImportLimits.Bytes
// in all, within ImportLimits.FileTimeout), and fills in what Apply needs to
// know of each. It stores nothing: storeFiles does, once the batch applies.
func (s *Server) readFiles(r *http.Request, changes []edit.Change) error {
	ctx, cancel := context.WithTimeout(r.Context(), s.imports.FileTimeout)
	defer cancel()
	budget := &fetchBudget{f: s.fetcher, left: s.imports.Bytes}
	for i := range changes {
		for j := range changes[i].Files {
			in := &changes[i].Files[j]
			data, contentType := in.Data, in.ContentType
			if in.URL != "" {
				fetched, fetchedType, err := budget.get(ctx, in.URL, MaxFetchedFile)
				switch {
				case r.Context().Err() != nil:
					return r.Context().Err()
				case errors.Is(err, errOverBudget):
					return errorf(quire.CodeTooLarge, "changes[%d].files[%d].url: the files fetched come to more than %s, the most one batch fetches",
						i, j, mib(s.imports.Bytes))
				case err != nil && ctx.Err() != nil:
					return errorf(quire.CodeInvalid, "changes[%d].files[%d].url: the files could not be fetched in %s, the longest one batch's fetches take",
						i, j, seconds(s.imports.FileTimeout))
				}
				if err != nil {
					msg := err.Error()
					if fe, ok := errors.AsType[*outbound.Error](err); ok {
						msg = fe.Message + " (" + fe.Code + ")" // fe.Err may name internal addresses
					}
					return errorf(quire.CodeInvalid, "changes[%d].files[%d].url: could not be fetched: %s", i, j, msg)
				}
				data = fetched
				if contentType == "" {
					contentType = fetchedType
				}
			}
			if mt, _, err := mime.ParseMediaType(contentType); err == nil {
				contentType = mt
			} else {
				contentType = http.DetectContentType(data)
				if mt, _, err := mime.ParseMediaType(contentType); err == nil {
					contentType = mt
				}
			}
			in.Data = data
			info := &edit.FileInfo{Blob: blob.Key(data), Size: int64(len(data)), ContentType: contentType}
			if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
				info.Width, info.Height = cfg.Width, cfg.Height
			}
			in.File = info
		}
	}
	return nil
}

// storeFiles writes the bytes readFiles read to the blob store.
func (s *Server) storeFiles(ctx context.Context, changes []edit.Change) error {
	for _, c := range changes {
		for _, in := range c.Files {
			key, err := s.blobs.Put(ctx, in.Data)
			if err != nil {
				return fmt.Errorf("store file: %w", err)
			}
			if key != in.File.Blob {
				return fmt.Errorf("store file: stored as %s, not %s", key, in.File.Blob)
			}
		}
	}
	return nil
}

type mergeResultJSON struct {
	Revision string `json:"revision"`
	Result   string `json:"result"`
}

// mergeChangeRequest merges a request into its space; it needs the review
// role (the reference's merge permission).
func (s *Server) mergeChangeRequest(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleReview)
	if err != nil {
		return err
	}
	if err := quire.CheckEditable(sp); err != nil {
		return err
	}
	if c, err = s.db.MergeChangeRequest(r.Context(), sp.ID, c.ID, caller(r.Context()).ID); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mergeResultJSON{Revision: c.RevisionMerged, Result: "merge"})
}

// updateChangeRequestFromSpace pulls the space's content into a request.
func (s *Server) updateChangeRequestFromSpace(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleEdit)
	if err != nil {
		return err
	}
	if err := quire.CheckEditable(sp); err != nil {
		return err
	}
	if c, err = s.db.UpdateChangeRequestFromSpace(r.Context(), sp.ID, c.ID, caller(r.Context()).ID); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, mergeResultJSON{Revision: c.RevisionID, Result: "update"})
}
