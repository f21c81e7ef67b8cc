package api

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
)

// ImportLimits bound the fetching that website imports and authoring
// batches with files given by URL do: how much and for how long one request
// fetches, and how many such requests run at once (authoring.Limits). A zero
// field takes its default.
type ImportLimits = authoring.Limits

// newAuthor builds the server's authoring: batches and imports.
func newAuthor(db *store.DB, cfg Config, appHost string) *authoring.Author {
	return &authoring.Author{DB: db, Blobs: cfg.Blobs, Fetcher: cfg.Fetcher, Limits: cfg.Imports, AppHost: appHost,
		PublicURL: strings.TrimRight(cfg.PublicURL, "/")}
}

// startImport takes one of the import slots of sp's organization and of
// the server, or answers 429 with Retry-After when none is free. The caller
// calls the returned function when the request is done. Imports take their
// slot before their body is read: a busy server refuses them unread.
func (s *Server) startImport(w http.ResponseWriter, sp *quire.Space) (func(), error) {
	done, err := s.author.Start(sp.OrgID)
	if err != nil {
		return nil, retryAfter(w, err)
	}
	return done, nil
}

// retryAfter returns err, telling the client when to try again if
// authoring refused the request for want of a free import slot.
func retryAfter(w http.ResponseWriter, err error) error {
	if quire.ErrorCode(err) == quire.CodeTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(authoring.RetryAfterSeconds))
	}
	return err
}
