// Package authoring is Quire's services layer: the writes that answer to
// rules, on domain-shaped inputs, each checking its rules and writing, for
// the API, the web app and the background jobs alike, through the one
// Author cmd/quire makes. Merges judge the merge rules in the merge's
// transaction (merge.go), and so do imports that merge at once (rules.go);
// authoring batches (POST CR/content) fetch the files a batch gives by URL
// and website imports the pages of a website, within Limits, then apply in
// one transaction and store the files in it, once the batch has applied;
// reviews, review requests, change requests and Git sync operations are
// checked here before the store writes them.
//
// It is apart from edit, which stays a pure package (parsing and applying a
// batch to a tree, table-tested without a database): this one does the I/O
// around it, through store, blob, outbound, importer and gitsync.
package authoring

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

// Author carries out the writes with rules: batches, imports, merges,
// reviews. Its zero value, given a DB, works; it counts the fetching
// requests running, so it is used by pointer, one per server, shared by
// the API, the app and the background jobs.
type Author struct {
	// DB holds the change requests and their revisions.
	DB *store.DB
	// Blobs holds file bytes; required for batches with files.
	Blobs blob.Store
	// Fetcher fetches files given by URL and the pages of websites.
	Fetcher outbound.Fetcher
	// Limits bound the fetching and how many requests fetch at once.
	Limits Limits
	// AppHost is the host of this server: links to it are in-app.
	AppHost string
	// PublicURL is this server's public base URL, no trailing slash: the
	// addresses in what custom merge rules see (mergeEnv).
	PublicURL string

	slots slots
}

// Apply applies parsed changes to change request c of space sp as one new
// revision by the user. A batch with files given by URL takes an import
// slot (Start) while it runs. The files are read first but stored only once
// the batch has applied, so that a batch that fails writes no file.
func (a *Author) Apply(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, userID string, changes []edit.Change) (*quire.ChangeRequest, *edit.Result, error) {
	if fetchesFiles(changes) {
		done, err := a.Start(sp.OrgID)
		if err != nil {
			return nil, nil, err
		}
		defer done()
	}
	return a.commit(ctx, sp, c, "", userID, "", changes, nil, nil)
}

// ApplyAt is Apply, refused as a conflict unless the change request's head
// is still revision expect when the batch applies (checked with its row
// locked): a writer who based their changes on expect never overwrites a
// newer save unseen. The app's editor saves this way.
func (a *Author) ApplyAt(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, userID, expect string, changes []edit.Change) (*quire.ChangeRequest, *edit.Result, error) {
	if expect == "" {
		return nil, nil, quire.Errorf(quire.CodeInvalid, "base: required")
	}
	if fetchesFiles(changes) {
		done, err := a.Start(sp.OrgID)
		if err != nil {
			return nil, nil, err
		}
		defer done()
	}
	return a.commit(ctx, sp, c, "", userID, expect, changes, nil, nil)
}

// commit applies a batch in one transaction: to change request c, or when c
// is nil to a change request it creates with subject, which it then merges
// once check (when not nil) allows it. Either all of it commits or nothing
// does. An expect other than "" is the
// revision c's head must still be (ApplyAt). within, when not nil, runs
// last in the transaction, with what the batch did: when it fails, nothing
// commits.
func (a *Author) commit(ctx context.Context, sp *quire.Space, c *quire.ChangeRequest, subject, userID, expect string, changes []edit.Change,
	check store.MergeCheck, within func(tx *store.Tx, res *edit.Result) error) (*quire.ChangeRequest, *edit.Result, error) {
	if err := a.readFiles(ctx, changes); err != nil {
		return nil, nil, err
	}
	var opts edit.Options
	if c != nil {
		var err error
		if opts, err = a.options(ctx, a.DB, sp.ID, c.Base(), changes); err != nil {
			return nil, nil, err
		}
	}
	var out *quire.ChangeRequest
	var result *edit.Result
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		cr, o := c, opts
		if c == nil {
			var err error
			if cr, err = tx.CreateChangeRequest(ctx, sp.ID, subject, userID); err != nil {
				return err
			}
			if o, err = a.options(ctx, tx, sp.ID, cr.Base(), changes); err != nil {
				return err
			}
		}
		var err error
		if out, result, err = apply(ctx, tx, sp.ID, cr.ID, userID, expect, changes, o); err != nil {
			return err
		}
		if c == nil {
			if out, err = tx.MergeChangeRequestChecked(ctx, sp.ID, cr.ID, userID, check); err != nil {
				return err
			}
		}
		if within != nil {
			if err := within(tx, result); err != nil {
				return err
			}
		}
		// The batch is valid: its files are stored before it commits. If the
		// commit fails, they stay unreferenced until collected.
		return a.storeFiles(ctx, changes)
	})
	if err != nil {
		return nil, nil, err
	}
	return out, result, nil
}

// treeReader reads revisions' trees: the store, or a transaction.
type treeReader interface {
	RevisionTree(ctx context.Context, spaceID, id string) (*store.Revision, *content.Tree, error)
}

// options loads what edit.Apply needs besides the batch: the request's
// base tree and those of the revisions the batch reverts pages to.
func (a *Author) options(ctx context.Context, r treeReader, spaceID, base string, changes []edit.Change) (edit.Options, error) {
	opts := edit.Options{NewID: store.NewID, AppHost: a.AppHost, Trees: map[string]*content.Tree{}}
	var err error
	if _, opts.Base, err = r.RevisionTree(ctx, spaceID, base); err != nil {
		return opts, err
	}
	for i, id := range edit.RevisionsToLoad(changes) {
		_, t, err := r.RevisionTree(ctx, spaceID, id)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return opts, quire.Errorf(quire.CodeInvalid, "changes: revision %q (revert %d) is not a revision of this space", id, i)
		}
		if err != nil {
			return opts, err
		}
		opts.Trees[id] = t
	}
	return opts, nil
}

// apply applies changes to the change request crID within tx, as its next
// revision; when expect is not "", only if its head is still that revision.
func apply(ctx context.Context, tx *store.Tx, spaceID, crID, userID, expect string, changes []edit.Change, opts edit.Options) (*quire.ChangeRequest, *edit.Result, error) {
	var result *edit.Result
	c, err := tx.ForkChangeRequest(ctx, spaceID, crID, userID, func(now time.Time, head *content.Tree) (*content.Tree, error) {
		if expect != "" {
			// The request's row is locked by now: what this reads stays so
			// until the transaction ends.
			cur, err := tx.ChangeRequest(ctx, spaceID, crID)
			if err != nil {
				return nil, err
			}
			if cur.RevisionID != expect {
				return nil, quire.Errorf(quire.CodeConflict, "change request #%d has changed since revision %s: someone saved after you began", cur.Number, expect)
			}
		}
		opts.Now = now.UnixMicro()
		res, err := edit.Apply(head, changes, opts)
		if err != nil {
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
// fetching those given by URL within the batch's limits (Limits.Bytes in
// all, within Limits.FileTimeout), and fills in what Apply needs to know of
// each. It stores nothing: storeFiles does, once the batch applies.
func (a *Author) readFiles(parent context.Context, changes []edit.Change) error {
	l := a.Limits.withDefaults()
	ctx, cancel := context.WithTimeout(parent, l.FileTimeout)
	defer cancel()
	budget := &fetchBudget{f: a.Fetcher, left: l.Bytes}
	for i := range changes {
		for j := range changes[i].Files {
			in := &changes[i].Files[j]
			data, contentType := in.Data, in.ContentType
			if in.URL != "" {
				fetched, fetchedType, err := budget.get(ctx, in.URL, MaxFetchedFile)
				switch {
				case parent.Err() != nil:
					return parent.Err()
				case errors.Is(err, errOverBudget):
					return quire.Errorf(quire.CodeTooLarge, "changes[%d].files[%d].url: the files fetched come to more than %s, the most one batch fetches",
						i, j, mib(l.Bytes))
				case err != nil && ctx.Err() != nil:
					return quire.Errorf(quire.CodeInvalid, "changes[%d].files[%d].url: the files could not be fetched in %s, the longest one batch's fetches take",
						i, j, seconds(l.FileTimeout))
				case err != nil:
					return quire.Errorf(quire.CodeInvalid, "changes[%d].files[%d].url: could not be fetched: %s", i, j, fetchProblem(err))
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
func (a *Author) storeFiles(ctx context.Context, changes []edit.Change) error {
	for _, c := range changes {
		for _, in := range c.Files {
			key, err := a.Blobs.Put(ctx, in.Data)
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
