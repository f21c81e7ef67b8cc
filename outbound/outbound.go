// Package outbound fetches URLs that users give, safely: it refuses
// loopback, private and link-local addresses unless allowed, and bounds time
// and size.
package outbound

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"
	"time"
)

// Error codes, as the reference names them for fetches.
const (
	CodeTimeout  = "FETCH_TIMEOUT"
	CodeError    = "FETCH_ERROR"
	CodeTooLarge = "FETCH_TOO_LARGE"
)

// Error is a failed fetch with a code callers can report.
type Error struct {
	Code string
	Err  error
}

func (e *Error) Error() string { return e.Code + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrPrivateAddress is returned for a URL resolving to an address that is
// not public.
var ErrPrivateAddress = errors.New("the address is private, loopback or link-local")

// Fetcher fetches URLs. The zero value refuses private addresses and uses
// a 15-second timeout.
type Fetcher struct {
	AllowPrivate bool          // QUIRE_ALLOW_PRIVATE_FETCH: tests and closed networks
	Timeout      time.Duration // whole request, 15 s when 0
}

// client checks every address it dials, after DNS resolution and on every
// redirect, so a name cannot smuggle a private address past the check.
func (f Fetcher) client() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	if !f.AllowPrivate {
		dialer.Control = func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if err != nil {
				return err
			}
			ip := net.ParseIP(host)
			if ip == nil || !public(ip) {
				return ErrPrivateAddress
			}
			return nil
		}
	}
	transport := &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 10 * time.Second, Proxy: nil}
	return &http.Client{Transport: transport, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		return nil
	}}
}

func public(ip net.IP) bool {
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsUnspecified() || ip.IsMulticast() || ip.IsInterfaceLocalMulticast())
}

// Get fetches url and returns at most max bytes of its body and its
// Content-Type; a longer body is a CodeTooLarge error.
func (f Fetcher) Get(ctx context.Context, url string, max int64) ([]byte, string, error) {
	timeout := f.Timeout
	if timeout == 0 {
		timeout = 15 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, "", &Error{CodeError, err}
	}
	req.Header.Set("User-Agent", "Quire")
	resp, err := f.client().Do(req)
	if err != nil {
		return nil, "", classify(ctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, "", &Error{CodeError, fmt.Errorf("the server answered %s", resp.Status)}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, "", classify(ctx, err)
	}
	if int64(len(body)) > max {
		return nil, "", &Error{CodeTooLarge, fmt.Errorf("the body is larger than %d bytes", max)}
	}
	return body, resp.Header.Get("Content-Type"), nil
}

func classify(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{CodeTimeout, errors.New("the server did not answer in time")}
	}
	return &Error{CodeError, err}
}
