package jobs

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
)

// Links to PDFs are signed, so that they need no token: the signature says
// a reader of the space asked for one. The key is a server key of the
// store (PDFLinkKey), shared by the servers of the database; the printer
// keeps it once read.

// PDFLinkKey names the server key that signs PDF links.
const PDFLinkKey = "pdf-links"

// PDFLink is what a link to a PDF names.
type PDFLink struct {
	Space, Revision string
	// ChangeRequest is the change request whose content it is, "" for none.
	ChangeRequest string
	// Page is the page printed with its subpages, "" for all; Only, that
	// page alone.
	Page string
	Only bool
	// Expires is when the link stops working, in Unix seconds.
	Expires int64
}

// payload is what the signature covers: every field, each on its own so
// that no two links sign alike.
func (l PDFLink) payload() []byte {
	return []byte(strings.Join([]string{"quire-pdf-v1", l.Space, l.Revision, l.ChangeRequest, l.Page,
		strconv.FormatBool(l.Only), strconv.FormatInt(l.Expires, 10)}, "\x00"))
}

// ErrPDFLink refuses a PDF link that was altered or has expired.
var ErrPDFLink = quire.Errorf(quire.CodeForbidden, "signature: this PDF link was altered or has expired; ask for a new one")

// SignPDFLink is l's signature: HMAC-SHA256 of what it names, in base64url.
func (p *PDFPrinter) SignPDFLink(ctx context.Context, l PDFLink) (string, error) {
	mac, err := p.linkMAC(ctx, l)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(mac), nil
}

// CheckPDFLink refuses (ErrPDFLink) l unless signature is its signature
// and it has not expired at now.
func (p *PDFPrinter) CheckPDFLink(ctx context.Context, l PDFLink, signature string, now time.Time) error {
	got, err := base64.RawURLEncoding.DecodeString(signature)
	if err != nil {
		return ErrPDFLink
	}
	want, err := p.linkMAC(ctx, l)
	if err != nil {
		return err
	}
	if !hmac.Equal(got, want) || !time.Unix(l.Expires, 0).After(now) {
		return ErrPDFLink
	}
	return nil
}

func (p *PDFPrinter) linkMAC(ctx context.Context, l PDFLink) ([]byte, error) {
	key, err := p.linkKey(ctx)
	if err != nil {
		return nil, err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write(l.payload())
	return mac.Sum(nil), nil
}

// linkKey is the key that signs PDF links, read once.
func (p *PDFPrinter) linkKey(ctx context.Context) ([]byte, error) {
	p.keyMu.Lock()
	defer p.keyMu.Unlock()
	if p.key == nil {
		key, err := p.DB.ServerKey(ctx, PDFLinkKey)
		if err != nil {
			return nil, err
		}
		p.key = key
	}
	return p.key, nil
}
