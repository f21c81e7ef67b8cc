package gitsync

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
	"golang.org/x/net/proxy"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// Git sync over ssh. A space signs in with its deploy key, an ed25519 key
// pair made when first needed (the private key sealed as credentials are),
// whose public half its admins add to the repository. The server's host
// key is trusted on first use, per space and host, unless the operator
// gives a known_hosts file (Syncer.KnownHosts), which is then the only
// trust. Connections are dialed with outbound's rules.

func deployKeyAD(spaceID string) []byte { return []byte("git-deploy-key:" + spaceID) }

// DeployKey is the public half of a space's deploy key.
type DeployKey struct {
	PublicKey   string // authorized_keys line, as deploy key forms take it
	Fingerprint string // SHA256:…
	CreatedAt   time.Time
}

// DeployKey returns the space's deploy key, making it if it has none.
func (s *Syncer) DeployKey(ctx context.Context, spaceID string) (*DeployKey, error) {
	k, err := s.deployKey(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	return showDeployKey(k)
}

// RotateDeployKey gives the space a new deploy key and returns it; the old
// one is forgotten (remove it from the repository).
func (s *Syncer) RotateDeployKey(ctx context.Context, spaceID string) (*DeployKey, error) {
	k, err := s.newDeployKey(ctx, spaceID, true)
	if err != nil {
		return nil, err
	}
	return showDeployKey(k)
}

func showDeployKey(k *store.GitDeployKey) (*DeployKey, error) {
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(k.PublicKey))
	if err != nil {
		return nil, fmt.Errorf("read the deploy key: %w", err)
	}
	return &DeployKey{PublicKey: k.PublicKey, Fingerprint: ssh.FingerprintSHA256(pub), CreatedAt: k.CreatedAt}, nil
}

func (s *Syncer) deployKey(ctx context.Context, spaceID string) (*store.GitDeployKey, error) {
	k, err := s.DB.GitDeployKey(ctx, spaceID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return s.newDeployKey(ctx, spaceID, false)
	}
	return k, err
}

// newDeployKey makes a key pair and stores it: in place of the space's
// with replace, else only if the space has none (the key stored wins).
func (s *Syncer) newDeployKey(ctx context.Context, spaceID string, replace bool) (*store.GitDeployKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	comment := "quire-space-" + spaceID
	block, err := ssh.MarshalPrivateKey(priv, comment)
	if err != nil {
		return nil, err
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return nil, err
	}
	sealed, err := s.seal(ctx, pem.EncodeToMemory(block), deployKeyAD(spaceID))
	if err != nil {
		return nil, err
	}
	line := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub))) + " " + comment
	return s.DB.SetGitDeployKey(ctx, spaceID, line, sealed, replace)
}

// sshAuth signs in to an ssh remote with a space's deploy key and checks
// the host's key; it is go-git's ssh AuthMethod.
type sshAuth struct {
	user       string
	hostport   string // as go-git dials it: the host key's name
	signer     ssh.Signer
	hostKeys   ssh.HostKeyCallback
	algorithms func(hostport string) []string
}

func (a *sshAuth) Name() string   { return "ssh-deploy-key" }
func (a *sshAuth) String() string { return "user: " + a.user + ", the space's deploy key" }

func (a *sshAuth) ClientConfig() (*ssh.ClientConfig, error) {
	return &ssh.ClientConfig{User: a.user, Auth: []ssh.AuthMethod{ssh.PublicKeys(a.signer)}, HostKeyCallback: a.hostKeys,
		HostKeyAlgorithms: a.hostKeyAlgorithms(), Timeout: 10 * time.Second}, nil
}

func (a *sshAuth) hostKeyAlgorithms() []string {
	if a.algorithms == nil {
		return nil
	}
	return a.algorithms(a.hostport)
}

var _ gitssh.AuthMethod = (*sshAuth)(nil)

// HostKeyError is an ssh host key that is not trusted: the sync is refused.
type HostKeyError struct{ Message string }

func (e *HostKeyError) Error() string { return e.Message }

// sshAuth is the space's sign-in to an ssh remote as user, with host keys
// checked against the operator's known_hosts file, else trusted on first
// use by the space.
func (s *Syncer) sshAuth(ctx context.Context, spaceID, user, hostport string) (*sshAuth, error) {
	k, err := s.deployKey(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	pemBytes, err := s.open(ctx, k.PrivateSealed, deployKeyAD(spaceID))
	if err != nil {
		return nil, fmt.Errorf("open the deploy key: %w", err)
	}
	signer, err := ssh.ParsePrivateKey(pemBytes)
	if err != nil {
		return nil, fmt.Errorf("read the deploy key: %w", err)
	}
	a := &sshAuth{user: user, hostport: hostport, signer: signer}
	if s.KnownHosts != "" {
		db, err := gitssh.NewKnownHostsDb(s.KnownHosts)
		if err != nil {
			return nil, fmt.Errorf("read the known hosts file: %w", err)
		}
		check := db.HostKeyCallback()
		a.hostKeys = func(host string, remote net.Addr, key ssh.PublicKey) error {
			err := check(host, remote, key)
			if keyErr, ok := errors.AsType[*knownhosts.KeyError](err); ok {
				if len(keyErr.Want) == 0 {
					return &HostKeyError{fmt.Sprintf("the ssh host %s is not in the server's known hosts (its key is %s)", host, ssh.FingerprintSHA256(key))}
				}
				return &HostKeyError{fmt.Sprintf("the ssh host key of %s (%s) is not the one the server's known hosts give: the sync is refused",
					host, ssh.FingerprintSHA256(key))}
			}
			if err != nil {
				return &HostKeyError{fmt.Sprintf("the ssh host key of %s is not trusted", host)}
			}
			return nil
		}
		a.algorithms = db.HostKeyAlgorithms
		return a, nil
	}
	a.hostKeys = func(host string, _ net.Addr, key ssh.PublicKey) error {
		seen := strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key)))
		trusted, err := s.DB.TrustGitHostKey(ctx, spaceID, host, seen)
		if err != nil {
			return err
		}
		if trusted != seen {
			was := trusted
			if pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(trusted)); err == nil {
				was = ssh.FingerprintSHA256(pub)
			}
			return &HostKeyError{fmt.Sprintf("the ssh host key of %s changed: it was %s when first trusted and is now %s; the sync is refused "+
				"(if the host really has a new key, disconnect the space and connect it again)", host, was, ssh.FingerprintSHA256(key))}
		}
		return nil
	}
	// Once a key is trusted, ask for its kind only, so a host with several
	// keys is not refused for showing another one.
	if trusted, err := s.DB.GitHostKey(ctx, spaceID, hostport); err == nil && trusted != "" {
		if pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(trusted)); err == nil {
			algs := []string{pub.Type()}
			if pub.Type() == ssh.KeyAlgoRSA {
				algs = []string{ssh.KeyAlgoRSASHA512, ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSA}
			}
			a.algorithms = func(string) []string { return algs }
		}
	}
	return a, nil
}

// CheckKnownHosts reads a known_hosts file as Syncer.KnownHosts would.
func CheckKnownHosts(path string) error {
	_, err := gitssh.NewKnownHostsDb(path)
	return err
}

// sshDialScheme names, as a proxy URL go-git's ssh transport dials
// through, outbound's dialer: quire-outbound://public or …://private.
const sshDialScheme = "quire-outbound"

type remotesDialer struct{ rules outbound.Remotes }

func (d remotesDialer) Dial(network, address string) (net.Conn, error) {
	return d.DialContext(context.Background(), network, address)
}

func (d remotesDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	c, err := d.rules.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	return idleConn{c, remoteTimeout}, nil
}

// idleConn fails a read or write that waits longer than idle: go-git's
// ssh handshake runs outside the operation's context, and a host that
// stalls must not hold the sync forever.
type idleConn struct {
	net.Conn
	idle time.Duration
}

func (c idleConn) Read(p []byte) (int, error) {
	c.Conn.SetReadDeadline(time.Now().Add(c.idle))
	return c.Conn.Read(p)
}

func (c idleConn) Write(p []byte) (int, error) {
	c.Conn.SetWriteDeadline(time.Now().Add(c.idle))
	return c.Conn.Write(p)
}

// installSSH makes go-git's ssh transport dial through outbound (see
// sshProxy) and ignore the server user's ~/.ssh/config, which could send a
// host elsewhere.
func installSSH() {
	gitssh.DefaultSSHConfig = nil
	proxy.RegisterDialerType(sshDialScheme, func(u *url.URL, _ proxy.Dialer) (proxy.Dialer, error) {
		return remotesDialer{outbound.Remotes{AllowPrivate: u.Host == "private"}}, nil
	})
}

// sshProxy is the ProxyOptions that make go-git dial an ssh remote with
// rules: the only way its ssh transport takes a dialer.
func sshProxy(rules outbound.Remotes) transport.ProxyOptions {
	if rules.AllowPrivate {
		return transport.ProxyOptions{URL: sshDialScheme + "://private"}
	}
	return transport.ProxyOptions{URL: sshDialScheme + "://public"}
}

// isAuthRefused reports an ssh server that took none of the keys offered.
func isAuthRefused(err error) bool {
	return err != nil && strings.Contains(err.Error(), "ssh: unable to authenticate")
}
