package api

import (
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
	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/pdf"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
)

// GET S/pdf and GET CR/pdf answer a link, valid for an hour, to the PDF of
// the content read (package pdf prints it). The link is signed, so it
// needs no token: the signature says a reader of the space asked for it.
// It names the revision, which never changes, so what it serves does not
// change either: each PDF is printed once, by a durable job (jobs/pdf.go,
// a row of pdf_exports), and kept in blob storage; a link's request joins
// the export of what it prints, waits for it (jobs.PDFPrinter.OpenPDF),
// and streams the blob.

const (
	// pdfLinkTTL is how long a PDF link works, as the reference says.
	pdfLinkTTL = time.Hour
	// pdfKeyName names the server key that signs PDF links.
	pdfKeyName = "pdf-links"
)

// pdfState is the key of PDF links, once read, and the printer of this
// server's PDF exports.
type pdfState struct {
	keyMu   sync.Mutex
	key     []byte
	printer *jobs.PDFPrinter
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
		if err := v.CheckPrintedPage(page); err != nil {
			return err
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
	v, err := s.reader.OpenPrinted(ctx, link.space, link.revision, link.changeRequest)
	if err != nil {
		return err
	}
	src := v.PDFSource(s.publicURL, s.blobs)
	key := store.PDFExportKey{SpaceID: v.Space.ID, RevisionID: link.revision, ChangeRequestID: link.changeRequest,
		PageID: link.page, Only: link.only, Title: src.Title, Subtitle: src.Subtitle}
	doc, err := s.pdf.printer.OpenPDF(ctx, key)
	if errors.Is(err, jobs.ErrPDFWait) {
		w.Header().Set("Retry-After", "10")
		return web.WriteJSONError(w, http.StatusServiceUnavailable, "the PDF is still being printed; try again in a moment")
	}
	if err != nil {
		return err
	}
	defer doc.Close()
	name := v.Space.Title
	if link.page != "" {
		if p := v.Page(link.page); p != nil {
			name = p.Title
		}
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", mimeDisposition(strings.TrimSpace(name)+".pdf"))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Cache-Control", "private, max-age="+strconv.FormatInt(max(0, link.expires-s.db.Now().Unix()), 10))
	http.ServeContent(w, r, "", time.Time{}, doc)
	return nil
}

// printExport prints x's PDF to out: it runs in jobs.PDFPrinter.
func (s *Server) printExport(ctx context.Context, x *store.PDFExport, out io.Writer) error {
	v, err := s.reader.OpenPrinted(ctx, x.SpaceID, x.RevisionID, x.ChangeRequestID)
	if err != nil {
		return err
	}
	src := v.PDFSource(s.publicURL, s.blobs)
	src.Title, src.Subtitle = x.Title, x.Subtitle
	return pdf.Write(ctx, out, src, pdf.Options{Page: x.PageID, Only: x.Only}, pdf.DefaultLimits)
}

// PDFPrinter prints this server's PDF exports; serve runs it, to print
// those no request is waiting for (jobs.PDFPrinter.Run).
func (s *Server) PDFPrinter() *jobs.PDFPrinter { return s.pdf.printer }
