package gitsync_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
)

// sshServer serves the bare repositories of a folder over ssh on
// 127.0.0.1, as a Git host does: the exec requests git-upload-pack and
// git-receive-pack run the git binary, for the authorized key only.
type sshServer struct {
	t    *testing.T
	root string
	addr string

	mu         sync.Mutex
	hostKey    ssh.Signer
	authorized ssh.PublicKey
}

func newHostKey(t *testing.T) ssh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer
}

func newSSHServer(t *testing.T, root string) *sshServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := &sshServer{t: t, root: root, addr: ln.Addr().String(), hostKey: newHostKey(t)}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

func (s *sshServer) authorize(key ssh.PublicKey) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.authorized = key
}

func (s *sshServer) setHostKey(k ssh.Signer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hostKey = k
}

func (s *sshServer) serve(conn net.Conn) {
	defer conn.Close()
	s.mu.Lock()
	cfg := &ssh.ServerConfig{PublicKeyCallback: func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if c.User() == "git" && s.authorized != nil && bytes.Equal(key.Marshal(), s.authorized.Marshal()) {
			return nil, nil
		}
		return nil, errors.New("key not authorized")
	}}
	cfg.AddHostKey(s.hostKey)
	s.mu.Unlock()
	_, chans, reqs, err := ssh.NewServerConn(conn, cfg)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "sessions only")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			return
		}
		go s.session(ch, chReqs)
	}
}

// session runs one exec request: "git-upload-pack '/docs.git'".
func (s *sshServer) session(ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for req := range reqs {
		var exe struct{ Command string }
		if req.Type != "exec" || ssh.Unmarshal(req.Payload, &exe) != nil {
			req.Reply(false, nil)
			continue
		}
		verb, arg, _ := strings.Cut(exe.Command, " ")
		if verb != "git-upload-pack" && verb != "git-receive-pack" {
			req.Reply(false, nil)
			continue
		}
		req.Reply(true, nil)
		cmd := exec.Command("git", strings.TrimPrefix(verb, "git-"), filepath.Join(s.root, filepath.Clean("/"+strings.Trim(arg, "'"))))
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+s.root)
		cmd.Stdout, cmd.Stderr = ch, ch.Stderr()
		stdin, _ := cmd.StdinPipe()
		go func() { io.Copy(stdin, ch); stdin.Close() }()
		status := 0
		if err := cmd.Run(); err != nil {
			status = 1
		}
		ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
		return
	}
}

// TestSSHRemote: an ssh remote is reached with the space's deploy key,
// both ways; a private address is refused unless allowed, a key the host
// did not authorize is told as such, and a host key other than the one
// first trusted, or than the operator's known_hosts give, refuses the sync.
func TestSSHRemote(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	srv := newSSHServer(t, filepath.Dir(f.bare))
	f.merge("Start", func(tr *content.Tree) { addPage(tr, "home", "Welcome", "welcome", "Hello over ssh.\n") })
	url := "ssh://git@" + srv.addr + "/" + filepath.Base(f.bare)

	export := func(url string) *store.GitSyncOperation {
		t.Helper()
		on := true
		if _, err := f.syncer.Queue(f.ctx, f.space, f.user.ID, gitsync.Request{Direction: store.GitDirExport, URL: url, Ref: "main",
			CommitMessage: "Over ssh", Sync: &on}); err != nil {
			t.Fatal(err)
		}
		f.run()
		op, err := f.db.LatestGitSyncOperation(f.ctx, f.space.ID)
		if err != nil {
			t.Fatal(err)
		}
		return op
	}
	f.syncer.Remotes = outbound.Remotes{}
	if op := export(url); op.State != store.GitFailure || !strings.Contains(op.Error, "not public") {
		t.Errorf("export to 127.0.0.1 = %s (%s), want the private address refused", op.State, op.Error)
	}
	if k, _ := f.db.GitHostKey(f.ctx, f.space.ID, srv.addr); k != "" {
		t.Errorf("a host key was trusted without dialing: %q", k)
	}

	f.syncer.Remotes = outbound.Remotes{AllowPrivate: true}
	if op := export(url); op.State != store.GitFailure || !strings.Contains(op.Error, "deploy key") {
		t.Errorf("export with a key not authorized = %s (%s), want the deploy key refused", op.State, op.Error)
	}
	dk, err := f.syncer.DeployKey(f.ctx, f.space.ID)
	if err != nil {
		t.Fatal(err)
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(dk.PublicKey))
	if err != nil || pub.Type() != ssh.KeyAlgoED25519 {
		t.Fatalf("deploy key %q: %v", dk.PublicKey, err)
	}
	srv.authorize(pub)
	if op := export(url); op.State != store.GitSuccess {
		t.Fatalf("export with the deploy key = %s (%s)", op.State, op.Error)
	}
	if got := git(t, f.bare, "show", "main:README.md"); !strings.Contains(got, "Hello over ssh.") {
		t.Errorf("README.md pushed over ssh = %q", got)
	}

	// And back: a commit on the branch is pulled over ssh.
	work := f.clone()
	writeFile(t, filepath.Join(work, "README.md"), strings.Replace(readFile(t, filepath.Join(work, "README.md")), "Hello over ssh.", "Edited in Git.", 1))
	git(t, work, "commit", "--quiet", "-am", "Edit in Git")
	git(t, work, "push", "--quiet")
	f.run()
	f.wantState(store.GitSuccess)
	if got := f.tree().Pages["home"].Markdown; !strings.Contains(got, "Edited in Git.") {
		t.Errorf("page after the pull over ssh = %q", got)
	}

	// The host shows another key: refused, the branch untouched.
	head := git(t, f.bare, "rev-parse", "main")
	firstHostKey := srv.hostKey
	srv.setHostKey(newHostKey(t))
	f.merge("More", func(tr *content.Tree) { addPage(tr, "more", "More", "more", "More.\n") })
	f.run()
	if op := f.wantState(store.GitFailure); !strings.Contains(op.Error, "host key") || !strings.Contains(op.Error, "changed") {
		t.Errorf("error = %q, want the changed host key refused", op.Error)
	}
	if now := git(t, f.bare, "rev-parse", "main"); now != head {
		t.Errorf("the branch moved to %s with an untrusted host key", now)
	}

	// An operator's known_hosts file is the only trust: the first key,
	// trusted by the space, is refused when the file does not list it.
	knownHosts := filepath.Join(t.TempDir(), "known_hosts")
	writeFile(t, knownHosts, knownhosts.Line([]string{knownhosts.Normalize(srv.addr)}, firstHostKey.PublicKey())+"\n")
	f.syncer.KnownHosts = knownHosts
	f.run()
	if op := f.wantState(store.GitFailure); !strings.Contains(op.Error, "known hosts") {
		t.Errorf("error = %q, want the host key refused by the known hosts", op.Error)
	}
	srv.setHostKey(firstHostKey)
	// The scp-like form of the same repository, relative to the user's home.
	host, port, _ := net.SplitHostPort(srv.addr)
	if op := export("git@" + host + ":" + port + ":" + filepath.Base(f.bare)); op.State != store.GitSuccess {
		t.Fatalf("export over ssh with known hosts = %s (%s)", op.State, op.Error)
	}
	if got := git(t, f.bare, "show", "main:SUMMARY.md"); !strings.Contains(got, "More") {
		t.Errorf("SUMMARY.md after the export over an scp-like URL = %q", got)
	}

	// A new deploy key: the old one no longer signs in.
	if nk, err := f.syncer.RotateDeployKey(f.ctx, f.space.ID); err != nil || nk.PublicKey == dk.PublicKey {
		t.Fatalf("rotated deploy key = %v, %v", nk, err)
	}
	f.merge("Again", func(tr *content.Tree) { addPage(tr, "again", "Again", "again", "Again.\n") })
	f.run()
	if op := f.wantState(store.GitFailure); !strings.Contains(op.Error, "deploy key") {
		t.Errorf("error after rotating = %q, want the new deploy key refused until added", op.Error)
	}
}
