package api

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// A file's downloadURL is signed, so that it needs no token: pages a
// published site renders put it in <img src>, and visitors' browsers have
// no token to send. The signature (HMAC-SHA256 with the server key
// fileLinkKey, shared by the servers of the database) binds the space, the
// revision, the file and the expiry; revisions never change, so what a
// link serves never changes either. The bearer route (downloadFile) still
// serves API callers who follow the old addresses.
//
// Lifetime: the renderer keeps a revision's answer, files and all, for up
// to 30 days before asking again (Next.js's "max" cache life), and pages
// made from it stay in its caches and in browsers meanwhile; so a link
// lives at least fileLinkLife. Its expiry is rounded up to a multiple of
// fileLinkWindow, so that every answer within a week gives the same
// address and caches keep one copy of each file.

const (
	// fileLinkKey names the server key that signs files' download URLs.
	fileLinkKey = "file-download"
	// fileLinkLife is the least time a file's download URL works for.
	fileLinkLife = 31 * 24 * time.Hour
	// fileLinkWindow is what expiries are rounded up to (from the Unix
	// epoch): how long answers keep giving one address.
	fileLinkWindow = 7 * 24 * time.Hour
)

// errFileLink refuses a file link that was altered or has expired.
var errFileLink = errorf(quire.CodeForbidden, "signature: this file link was altered or has expired; read the file again for a new downloadURL")

// fileLinks signs and checks files' download URLs with a key read once.
type fileLinks struct {
	mu  sync.Mutex
	key []byte
}

// fileLinkKeyOf is the key that signs file links, read once from the store.
func (s *Server) fileLinkKeyOf(ctx context.Context) ([]byte, error) {
	s.files.mu.Lock()
	defer s.files.mu.Unlock()
	if s.files.key == nil {
		key, err := s.db.ServerKey(ctx, fileLinkKey)
		if err != nil {
			return nil, err
		}
		s.files.key = key
	}
	return s.files.key, nil
}

// links is s.wire with files' downloadURLs signed: what answers showing
// files build with.
func (s *Server) links(ctx context.Context) (wire.Links, error) {
	key, err := s.fileLinkKeyOf(ctx)
	if err != nil {
		return wire.Links{}, err
	}
	l := s.wire
	expires := fileLinkExpiry(s.db.Now())
	l.FileURL = func(spaceID, revisionID, fileID string) string {
		q := url.Values{}
		q.Set("expires", strconv.FormatInt(expires, 10))
		q.Set("signature", base64.RawURLEncoding.EncodeToString(fileLinkMAC(key, spaceID, revisionID, fileID, expires)))
		return s.publicURL + "/file/" + url.PathEscape(spaceID) + "/" + url.PathEscape(revisionID) + "/" + url.PathEscape(fileID) + "?" + q.Encode()
	}
	return l, nil
}

// fileLinkExpiry is when a link made at now expires, in Unix seconds: at
// least fileLinkLife later, rounded up to a multiple of fileLinkWindow.
func fileLinkExpiry(now time.Time) int64 {
	least, window := now.Add(fileLinkLife).Unix(), int64(fileLinkWindow/time.Second)
	return (least + window - 1) / window * window
}

// fileLinkMAC signs what a file link names, each part on its own so that
// no two links sign alike.
func fileLinkMAC(key []byte, spaceID, revisionID, fileID string, expires int64) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(strings.Join([]string{"quire-file-v1", spaceID, revisionID, fileID, strconv.FormatInt(expires, 10)}, "\x00")))
	return mac.Sum(nil)
}

// downloadSignedFile serves GET /file/{spaceId}/{revisionId}/{fileId}: the
// bytes a signed downloadURL names, to anyone holding it, cacheable until
// it expires.
func (s *Server) downloadSignedFile(w http.ResponseWriter, r *http.Request) error {
	spaceID, revID, fileID := r.PathValue("spaceId"), r.PathValue("revisionId"), r.PathValue("fileId")
	q := r.URL.Query()
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		return errFileLink
	}
	got, err := base64.RawURLEncoding.DecodeString(q.Get("signature"))
	if err != nil {
		return errFileLink
	}
	key, err := s.fileLinkKeyOf(r.Context())
	if err != nil {
		return err
	}
	left := expires - s.db.Now().Unix()
	if !hmac.Equal(got, fileLinkMAC(key, spaceID, revID, fileID, expires)) || left <= 0 {
		return errFileLink
	}
	v, err := s.reader.OpenPrinted(r.Context(), spaceID, revID, "")
	if err != nil {
		return err
	}
	return s.serveFile(w, r, v, fileID, "public, max-age="+strconv.FormatInt(left, 10)+", immutable")
}
