package outbound

import (
	"context"
	"errors"
	"net"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Remotes says which Git repositories Git sync may reach: over http, https
// and ssh (ssh://user@host[:port]/path and scp-like user@host:path), public
// addresses only unless AllowPrivate; file:// repositories on the server's
// disk only when AllowFile, which the operator enables (tests, mirrors on
// the same host). Other schemes (git) are never used.
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
	if u, ok := ScpLike(raw); ok {
		return u, nil
	}
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
	case "ssh":
		if u.Host == "" || u.Hostname() == "" || strings.HasPrefix(u.Hostname(), "-") {
			return nil, &Error{CodeError, "the repository URL must have a host", ErrRemoteScheme}
		}
		if _, ok := u.User.Password(); ok {
			return nil, &Error{CodeError, "an ssh repository URL takes no password: Quire signs in with the space's deploy key", ErrRemoteScheme}
		}
		if strings.Trim(u.Path, "/") == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, &Error{CodeError, "an ssh repository URL must be ssh://user@host[:port]/path", ErrRemoteScheme}
		}
	default:
		return nil, &Error{CodeError, "the repository URL must be an http, https or ssh URL", ErrRemoteScheme}
	}
	return u, nil
}

// scpLike is Git's scp-like ssh syntax, user@host:path, narrowed to plain
// names (go-git reads a port as in host:2222:path).
var scpLike = regexp.MustCompile(`^(?:([A-Za-z0-9._-]+)@)?([A-Za-z0-9][A-Za-z0-9.-]*):(?:([0-9]{1,5}):)?([^\\:][^:]*)$`)

// ScpLike parses an scp-like ssh remote (git@github.com:acme/docs.git) as
// the ssh URL it stands for, its path kept relative as Git does.
func ScpLike(raw string) (*url.URL, bool) {
	if strings.Contains(raw, "://") {
		return nil, false
	}
	m := scpLike.FindStringSubmatch(raw)
	if m == nil || strings.ContainsAny(raw, " \t\r\n") {
		return nil, false
	}
	u := &url.URL{Scheme: "ssh", Host: m[2], Path: m[4]}
	if m[3] != "" {
		u.Host = net.JoinHostPort(m[2], m[3])
	}
	if m[1] != "" {
		u.User = url.User(m[1])
	}
	return u, true
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
