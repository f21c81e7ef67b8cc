package outbound

import (
	"context"
	"errors"
	"net"
	"net/url"
	"syscall"
	"time"
)

// Remotes says which Git repositories Git sync may reach: over http and
// https, public addresses only unless AllowPrivate; file:// repositories on
// the server's disk only when AllowFile, which the operator enables (tests,
// mirrors on the same host). Other schemes (ssh, git) are never used.
type Remotes struct {
	AllowPrivate bool // QUIRE_ALLOW_PRIVATE_FETCH
	AllowFile    bool // QUIRE_GIT_ALLOW_FILE
}

// ErrRemoteScheme is the cause of a remote refused for its scheme.
var ErrRemoteScheme = errors.New("the repository URL's scheme is not allowed")

// Check parses a repository URL and refuses what r does not allow. The
// error's message is safe to show, and never repeats the URL (it may
// carry credentials).
func (r Remotes) Check(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, &Error{CodeError, "the repository URL is not a valid URL", errors.New("unparsable repository URL")}
	}
	switch u.Scheme {
	case "http", "https":
		if u.Host == "" || u.Hostname() == "" {
			return nil, &Error{CodeError, "the repository URL must have a host", ErrRemoteScheme}
		}
	case "file":
		if !r.AllowFile {
			return nil, &Error{CodeError, "file:// repositories are not enabled on this server", ErrRemoteScheme}
		}
		if u.Host != "" && u.Host != "localhost" || u.Path == "" || u.User != nil {
			return nil, &Error{CodeError, "a file:// repository URL must be file:///absolute/path", ErrRemoteScheme}
		}
	default:
		return nil, &Error{CodeError, "the repository URL must be an http or https URL", ErrRemoteScheme}
	}
	return u, nil
}

// DialContext connects as the fetches of a Fetcher do: to public addresses
// that are not the host's own only, unless AllowPrivate.
func (r Remotes) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 10 * time.Second}
	if !r.AllowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error { return checkDial(address) }
	}
	return d.DialContext(ctx, network, address)
}

// RemoteProblem is what a client is told of a failed connection to a
// remote: a refused address says so, other causes say only that the
// repository could not be reached.
func RemoteProblem(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Message
	}
	if errors.Is(err, ErrPrivateAddress) {
		return msgNotPublic
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return msgNoHost
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return msgTimeout
	}
	return "the repository could not be reached"
}
