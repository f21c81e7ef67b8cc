package api

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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
)

// pdfState is the printer of this server's PDF exports, which also signs
// and checks their links (jobs/pdflinks.go).
type pdfState struct {
	printer *jobs.PDFPrinter
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
	link := jobs.PDFLink{Space: sp.ID, Revision: rev, Page: page, Only: only, Expires: s.db.Now().Add(pdfLinkTTL).Unix()}
	if c != nil {
		link.ChangeRequest = c.ID
	}
	sig, err := s.pdf.printer.SignPDFLink(r.Context(), link)
	if err != nil {
		return err
	}
	q := url.Values{}
	if link.ChangeRequest != "" {
		q.Set("changeRequest", link.ChangeRequest)
	}
	if page != "" {
		q.Set("page", page)
	}
	if only {
		q.Set("only", "true")
	}
	q.Set("expires", strconv.FormatInt(link.Expires, 10))
	q.Set("signature", sig)
	u := s.publicURL + "/pdf/" + url.PathEscape(sp.ID) + "/" + url.PathEscape(rev) + "?" + q.Encode()
	return writeJSON(w, http.StatusOK, map[string]string{"url": u})
}

// pdfLinkOf reads and checks the link r follows.
func (s *Server) pdfLinkOf(r *http.Request) (jobs.PDFLink, error) {
	q := r.URL.Query()
	link := jobs.PDFLink{Space: r.PathValue("spaceId"), Revision: r.PathValue("revisionId"),
		ChangeRequest: q.Get("changeRequest"), Page: q.Get("page"), Only: q.Get("only") == "true"}
	expires, err := strconv.ParseInt(q.Get("expires"), 10, 64)
	if err != nil {
		return link, jobs.ErrPDFLink
	}
	link.Expires = expires
	if q.Has("only") && q.Get("only") != "true" {
		return link, jobs.ErrPDFLink // only links that say only=true are signed with it
	}
	return link, s.pdf.printer.CheckPDFLink(r.Context(), link, q.Get("signature"), s.db.Now())
}

// downloadPDF serves the PDF a signed link names; it needs no token.
func (s *Server) downloadPDF(w http.ResponseWriter, r *http.Request) error {
	link, err := s.pdfLinkOf(r)
	if err != nil {
		return err
	}
	ctx := r.Context()
	v, err := s.reader.OpenPrinted(ctx, link.Space, link.Revision, link.ChangeRequest)
	if err != nil {
		return err
	}
	src := v.PDFSource(s.publicURL, s.blobs)
	key := store.PDFExportKey{SpaceID: v.Space.ID, RevisionID: link.Revision, ChangeRequestID: link.ChangeRequest,
		PageID: link.Page, Only: link.Only, Title: src.Title, Subtitle: src.Subtitle}
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
	if link.Page != "" {
		if p := v.Page(link.Page); p != nil {
			name = p.Title
		}
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", mimeDisposition(strings.TrimSpace(name)+".pdf"))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Cache-Control", "private, max-age="+strconv.FormatInt(max(0, link.Expires-s.db.Now().Unix()), 10))
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
