// Package outbound fetches URLs that users give, safely: it connects only
// to global unicast addresses that are not the host's own, unless allowed,
// bounds time and size, and tells callers what went wrong without telling
// them about the network it runs in.
package outbound

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

// Error codes, as the reference names them for fetches.
const (
	CodeTimeout  = "FETCH_TIMEOUT"
	CodeError    = "FETCH_ERROR"
	CodeTooLarge = "FETCH_TOO_LARGE"
)

// Client messages: what a caller is told, whatever the cause.
const (
	msgFailed     = "the URL could not be fetched"
	msgNotPublic  = "the URL points to an address that is not public"
	msgTimeout    = "the server did not answer in time"
	msgBadURL     = "the URL must be an http or https URL with a host"
	msgNoHost     = "the URL's host name was not found"
	msgBadCert    = "the server's TLS certificate is not valid"
	msgRedirects  = "the URL redirects more than 5 times"
	msgRedirectTo = "the URL redirects to a URL that is not http or https"
)

// Error is a failed fetch with a code callers can report. Error returns
// Message, which is safe to show to whoever gave the URL: it never names
// the addresses dialed, the resolver, or how a connection failed. Err, the
// cause, may, and is for logs only: Detail and LogValue include it.
type Error struct {
	Code    string
	Message string
	Err     error
}

func (e *Error) Error() string { return e.Message }
func (e *Error) Unwrap() error { return e.Err }

// Detail is the message with its cause, for logs.
func (e *Error) Detail() string {
	if e.Err == nil || e.Err.Error() == e.Message {
		return e.Code + ": " + e.Message
	}
	return e.Code + ": " + e.Message + ": " + e.Err.Error()
}

// LogValue makes slog record the cause too.
func (e *Error) LogValue() slog.Value { return slog.StringValue(e.Detail()) }

// ErrPrivateAddress is the cause of a fetch refused because the URL, or a
// redirect, resolved to an address that is not public (see public).
var ErrPrivateAddress = errors.New("the address is not a public one")

// Fetcher fetches URLs. The zero value refuses addresses that are not
// public and uses a 15-second timeout.
type Fetcher struct {
	AllowPrivate bool          // QUIRE_ALLOW_PRIVATE_FETCH: tests and closed networks
	Timeout      time.Duration // whole request, 15 s when 0
}

// client checks every address it dials, after DNS resolution and on every
// redirect, so a name cannot smuggle a private address past the check.
func (f Fetcher) client() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	if !f.AllowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error { return checkDial(address) }
	}
	transport := &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 10 * time.Second, Proxy: nil}
	return &http.Client{Transport: transport, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return &Error{CodeError, msgRedirects, errors.New("too many redirects")}
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return &Error{CodeError, msgRedirectTo, fmt.Errorf("redirect to scheme %q", req.URL.Scheme)}
		}
		return nil
	}}
}

// Get fetches url and returns at most max bytes of its body and its
// Content-Type; a longer body is a CodeTooLarge error. Every error is an
// *Error.
func (f Fetcher) Get(ctx context.Context, rawURL string, max int64) ([]byte, string, error) {
	p, err := f.GetStart(ctx, rawURL, max)
	if err != nil {
		return nil, "", err
	}
	if p.Truncated {
		msg := fmt.Sprintf("the body is larger than %d bytes", max)
		return nil, "", &Error{CodeTooLarge, msg, errors.New(msg)}
	}
	return p.Body, p.ContentType, nil
}

// Page is the start of a page fetched by GetStart.
type Page struct {
	Body        []byte // at most the max asked for
	Truncated   bool   // the body went on beyond Body, unread
	ContentType string
	URL         *url.URL // where Body was read from, after redirects
}

// GetStart fetches url as Get does, but a body longer than max is cut
// there rather than refused: for reading what a page's head says of it.
// Every error is an *Error.
func (f Fetcher) GetStart(ctx context.Context, rawURL string, max int64) (*Page, error) {
	timeout := f.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if u, err := url.Parse(rawURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{CodeError, msgBadURL, err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &Error{CodeError, msgBadURL, err}
	}
	req.Header.Set("User-Agent", "Quire")
	resp, err := f.client().Do(req)
	if err != nil {
		return nil, classify(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		// The remote's own status is its to tell; its reason text is not
		// repeated, only the standard one.
		msg := fmt.Sprintf("the server answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))
		return nil, &Error{CodeError, msg, errors.New(resp.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, classify(ctx, err)
	}
	p := &Page{Body: body, ContentType: resp.Header.Get("Content-Type"), URL: resp.Request.URL}
	if int64(len(body)) > max {
		p.Body, p.Truncated = body[:max], true
	}
	return p, nil
}

// classify gives a failed request its code and client message, keeping the
// error as the cause.
func classify(ctx context.Context, err error) *Error {
	if e, ok := errors.AsType[*Error](err); ok { // from CheckRedirect
		return &Error{e.Code, e.Message, err}
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var unknownAuthority x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.Is(err, ErrPrivateAddress):
		return &Error{CodeError, msgNotPublic, err}
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return &Error{CodeTimeout, msgTimeout, err}
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return &Error{CodeError, msgNoHost, err}
	case errors.As(err, &certErr) || errors.As(err, &unknownAuthority) || errors.As(err, &hostname) || errors.As(err, &invalid):
		return &Error{CodeError, msgBadCert, err}
	}
	return &Error{CodeError, msgFailed, err}
}

// Response is the answer to a Post: its status and the start of its body.
type Response struct {
	Status int
	Body   []byte // at most the max given to Post; the rest is not read
}

// Post sends body as JSON to rawURL with header added, and returns the
// answer, whatever its status, with at most max bytes of its body.
// Redirects are not followed: a 3xx is the answer. It fails, with an
// *Error, only when no answer came.
func (f Fetcher) Post(ctx context.Context, rawURL string, header http.Header, body []byte, max int64) (*Response, error) {
	timeout := f.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if u, err := url.Parse(rawURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, &Error{CodeError, msgBadURL, err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(body))
	if err != nil {
		return nil, &Error{CodeError, msgBadURL, err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	if req.Header.Get("User-Agent") == "" {
		req.Header.Set("User-Agent", "Quire")
	}
	client := f.client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		return nil, classify(ctx, err)
	}
	defer resp.Body.Close()
	out := &Response{Status: resp.StatusCode}
	if out.Body, err = io.ReadAll(io.LimitReader(resp.Body, max)); err != nil {
		return nil, classify(ctx, err)
	}
	return out, nil
}
