package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/internal/lru"
	"github.com/quiredocs/quire/pdf"
	"github.com/quiredocs/quire/revision"
)

// GET S/pdf and GET CR/pdf answer a link, valid for an hour, to the PDF of
// the content read (package pdf prints it). The link is signed, so it
// needs no token: the signature says a reader of the space asked for it.
// It names the revision, which never changes, so what it serves does not
// change either, and PDFs are kept in a small cache by what they print.

const (
	// pdfLinkTTL is how long a PDF link works, as the reference says.
	pdfLinkTTL = time.Hour
	// pdfTimeout bounds the printing of one PDF.
	pdfTimeout = 90 * time.Second
	// pdfPrinting is how many PDFs print at once: printing is all CPU.
	pdfPrinting = 2
	// maxCachedPDFs and maxCachedPDF bound the cache of PDFs, and what one
	// kept in it may weigh.
	maxCachedPDFs = 64 << 20
	maxCachedPDF  = 16 << 20
	// pdfKeyName names the server key that signs PDF links.
	pdfKeyName = "pdf-links"
)

// pdfState is the key of PDF links, once read, the PDFs printed lately,
// and the slots of those printing.
type pdfState struct {
	keyMu    sync.Mutex
	key      []byte
	cache    *lru.Cache[pdfLink, []byte]
	printing chan struct{}
}

func newPDFState() *pdfState {
	return &pdfState{cache: lru.New[pdfLink, []byte](maxCachedPDFs), printing: make(chan struct{}, pdfPrinting)}
}

// pdfLink is what a PDF link names.
type pdfLink struct {
	space, revision string
	changeRequest   string // the change request whose content it is, "" for none
	page            string // the page printed with its subpages, "" for all
	only            bool   // page alone
	expires         int64  // Unix seconds
}

// payload is what the signature covers: every field, each on its own so
// that no two links sign alike.
func (l pdfLink) payload() []byte {
	return []byte(strings.Join([]string{"quire-pdf-v1", l.space, l.revision, l.changeRequest, l.page,
		strconv.FormatBool(l.only), strconv.FormatInt(l.expires, 10)}, "\x00"))
}

func (s *Server) getSpacePDF(w http.ResponseWriter, r *http.Request) error {
	sp, _, err := s.space(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return s.answerPDFLink(w, r, sp, sp.RevisionID, nil)
}

func (s *Server) getChangeRequestPDF(w http.ResponseWriter, r *http.Request) error {
	sp, c, err := s.changeRequest(r, quire.RoleRead)
	if err != nil {
		return err
	}
	return s.answerPDFLink(w, r, sp, c.RevisionID, c)
}

// answerPDFLink answers the signed link to the PDF of sp at revision rev.
func (s *Server) answerPDFLink(w http.ResponseWriter, r *http.Request, sp *quire.Space, rev string, c *quire.ChangeRequest) error {
	only, err := boolParam(r, "only", false)
	if err != nil {
		return err
	}
	page := r.URL.Query().Get("page")
	if only && page == "" {
		return errorf(quire.CodeInvalid, "page: required when only is true")
	}
	if page != "" {
		v, err := s.reader.Open(r.Context(), sp, rev, c)
		if err != nil {
			return err
		}
		if _, placed := v.Tree.Parent(page); !placed || v.Page(page) == nil {
			return errorf(quire.CodeNotFound, "page not found")
		}
	}
	link := pdfLink{space: sp.ID, revision: rev, page: page, only: only, expires: s.db.Now().Add(pdfLinkTTL).Unix()}
	if c != nil {
		link.changeRequest = c.ID
	}
	sig, err := s.signPDF(r.Context(), link)
	if err != nil {
		return err
	}
	q := url.Values{}
	if link.changeRequest != "" {
		q.Set("changeRequest", link.changeRequest)
	}
	if page != "" {
		q.Set("page", page)
	}
	if only {
		q.Set("only", "true")
	}
	q.Set("expires", strconv.FormatInt(link.expires, 10))
	q.Set("signature", sig)
	u := s.publicURL + "/pdf/" + url.PathEscape(sp.ID) + "/" + url.PathEscape(rev) + "?" + q.Encode()
	return writeJSON(w, http.StatusOK, map[string]string{"url": u})
}

// pdfKey is the key that signs PDF links, shared by the servers of the
// database.
func (s *Server) pdfKey(ctx context.Context) ([]byte, error) {
	s.pdf.keyMu.Lock()
	defer s.pdf.keyMu.Unlock()
	if s.pdf.key == nil {
		key, err := s.db.ServerKey(ctx, pdfKeyName)
		if err != nil {
			return nil, err
		}
		s.pdf.key = key
	}
	return s.pdf.key, nil
}

// signPDF is link's signature: HMAC-SHA256 of its payload, in base64url.
func (s *Server) signPDF(ctx context.Context, link pdfLink) (string, error) {
	key, err := s.pdfKey(ctx)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(link.payload())
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

// errPDFLink refuses a PDF link that was altered or has expired.
var errPDFLink = quire.Errorf(quire.CodeForbidden, "signature: this PDF link was altered or has expired; ask for a new one")

// pdfLinkOf reads and checks the link r follows.
func (s *Server) pdfLinkOf(r *http.Request) (pdfLink, error) {
	q := r.URL.Query()
	link := pdfLink{space: r.PathValue("spaceId"), revision: r.PathValue("revisionId"),
		changeRequest: q.Get("changeRequest"), page: q.Get("page"), only: q.Get("only") == "true"}
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		return link, errPDFLink
	}
	link.expires = expires
	if q.Has("only") && q.Get("only") != "true" {
		return link, errPDFLink // only links that say only=true are signed with it
	}
	got, err := base64.RawURLEncoding.DecodeString(q.Get("signature"))
	if err != nil {
		return link, errPDFLink
	}
	want, err := s.signPDF(r.Context(), link)
	if err != nil {
		return link, err
	}
	wantMAC, _ := base64.RawURLEncoding.DecodeString(want)
	if !hmac.Equal(got, wantMAC) || !time.Unix(expires, 0).After(s.db.Now()) {
		return link, errPDFLink
	}
	return link, nil
}

// downloadPDF serves the PDF a signed link names; it needs no token.
func (s *Server) downloadPDF(w http.ResponseWriter, r *http.Request) error {
	link, err := s.pdfLinkOf(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	sp, err := s.db.Space(ctx, link.space)
	if err != nil {
		return err
	}
	if !sp.DeletedAt.IsZero() {
		return errorf(quire.CodeNotFound, "space not found")
	}
	var c *quire.ChangeRequest
	if link.changeRequest != "" {
		if c, err = s.db.ChangeRequest(ctx, sp.ID, link.changeRequest); err != nil {
			return err
		}
	}
	v, err := s.reader.Open(ctx, sp, link.revision, c)
	if err != nil {
		return err
	}
	doc, err := s.printPDF(ctx, v, link)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		w.Header().Set("Retry-After", "10")
		var body errorBody
		body.Error.Code, body.Error.Message = http.StatusServiceUnavailable, "printing the PDF took too long; try again, or print fewer pages"
		return writeJSON(w, http.StatusServiceUnavailable, body)
	}
	if err != nil {
		return err
	}
	name := sp.Title
	if link.page != "" {
		name = v.Page(link.page).Title
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", mimeDisposition(strings.TrimSpace(name)+".pdf"))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Cache-Control", "private, max-age="+strconv.FormatInt(max(0, link.expires-s.db.Now().Unix()), 10))
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(doc))
	return nil
}

// printPDF prints the PDF of view v that link names, or takes it from the
// cache. Change request subjects change: what is cached is keyed by it too.
func (s *Server) printPDF(ctx context.Context, v *revision.View, link pdfLink) ([]byte, error) {
	src := s.pdfSource(v)
	key := link
	key.expires = 0
	key.changeRequest = src.Subtitle
	if doc, ok := s.pdf.cache.Get(key); ok {
		return doc, nil
	}
	ctx, cancel := context.WithTimeout(ctx, pdfTimeout)
	defer cancel()
	select {
	case s.pdf.printing <- struct{}{}:
		defer func() { <-s.pdf.printing }()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var b bytes.Buffer
	if err := pdf.Write(ctx, &b, src, pdf.Options{Page: link.page, Only: link.only}, pdf.DefaultLimits); err != nil {
		return nil, err
	}
	if b.Len() <= maxCachedPDF {
		s.pdf.cache.Add(key, b.Bytes(), b.Len()+256)
	}
	return b.Bytes(), nil
}

// pdfSource is what package pdf prints v from.
func (s *Server) pdfSource(v *revision.View) pdf.Source {
	src := pdf.Source{
		Title: v.Space.Title, Revision: v.Revision.ID, Date: v.Revision.CreatedAt,
		Tree: v.Tree, Resolver: v.Resolver(),
		OpenFile: func(ctx context.Context, f *content.File) (io.ReadCloser, error) {
			if s.blobs == nil {
				return nil, errors.New("no blob store")
			}
			return s.blobs.Open(ctx, f.Blob)
		},
		PageURL: func(id, anchor string) string { return v.Space.PageAppURL(s.publicURL, v.Path(id), anchor) },
	}
	if c := v.ChangeRequest; c != nil {
		src.Subtitle = "Change request #" + strconv.Itoa(c.Number)
		if c.Subject != "" {
			src.Subtitle += ": " + c.Subject
		}
	}
	return src
}
