package gitsync

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	gitconfig "github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/quiredocs/quire/outbound"
)

// Talking to a remote with go-git. Every space has a cache of its remote
// (a bare repository under the data folder), so a sync fetches only what
// is new and pushes only what it made. Commits are built from tree objects
// directly, without a working tree: the folder of the space is replaced,
// the rest of the repository is kept as it is.
//
// go-git's file:// transport runs git-upload-pack and git-receive-pack, so
// file:// remotes need the git binary; http(s) remotes do not.

const (
	remoteTimeout = 2 * time.Minute
	trackingRef   = plumbing.ReferenceName("refs/quire/remote")
	pushRef       = plumbing.ReferenceName("refs/quire/push")
)

// remotesKey carries the outbound rules of a sync to the dialer of go-git's
// HTTP transport, which is installed once for the process.
type remotesKey struct{}

var installHTTP sync.Once

// installTransport makes go-git's http and https transports dial through
// outbound's rules, taken from each request's context: without rules in
// the context, only public addresses.
func installTransport() {
	installHTTP.Do(func() {
		transport := &http.Transport{
			Proxy: nil,
			DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
				r, _ := ctx.Value(remotesKey{}).(outbound.Remotes)
				return r.DialContext(ctx, network, address)
			},
			TLSHandshakeTimeout: 10 * time.Second,
		}
		c := githttp.NewClient(&http.Client{Transport: transport})
		client.InstallProtocol("http", c)
		client.InstallProtocol("https", c)
		installSSH()
	})
}

// remote is an open connection to a space's repository: its local cache,
// the branch, and the credentials of the URL.
type remote struct {
	repo   *git.Repository
	url    string // without credentials: what go-git and errors see
	auth   transport.AuthMethod
	ref    plumbing.ReferenceName
	rules  outbound.Remotes
	remote *git.Remote
	// An ssh remote's user and host:port (its auth is the space's deploy
	// key, set by the caller), and the dialer go-git reaches it with.
	sshUser, sshHost string
	proxy            transport.ProxyOptions
}

// openRemote opens (or creates) the cache of a remote in dir; "" keeps it
// in memory, for one operation.
func openRemote(rawURL, ref, dir string, rules outbound.Remotes) (*remote, error) {
	u, err := rules.Check(rawURL)
	if err != nil {
		return nil, err
	}
	installTransport()
	r := &remote{rules: rules, ref: plumbing.ReferenceName(ref)}
	if u.Scheme == "ssh" {
		// go-git reads the URL itself (scp-like ones too): it must see the
		// host that was checked, over ssh.
		ep, err := transport.NewEndpoint(rawURL)
		if err != nil || ep.Protocol != "ssh" || ep.Host != u.Hostname() {
			return nil, &RemoteError{Message: "the ssh repository URL could not be read", Err: err}
		}
		port := ep.Port
		if port <= 0 {
			port = 22
		}
		r.sshUser, r.sshHost, r.proxy = cmp.Or(ep.User, "git"), net.JoinHostPort(ep.Host, strconv.Itoa(port)), sshProxy(rules)
		r.url = rawURL
	} else if u.User != nil {
		pass, _ := u.User.Password()
		r.auth = &githttp.BasicAuth{Username: u.User.Username(), Password: pass}
		u.User = nil
	}
	if r.url == "" {
		r.url = u.String()
	}
	if dir == "" {
		r.repo, err = git.Init(memory.NewStorage(), nil)
	} else if r.repo, err = git.PlainOpen(dir); errors.Is(err, git.ErrRepositoryNotExists) {
		if err = os.MkdirAll(filepath.Dir(dir), 0o700); err == nil {
			r.repo, err = git.PlainInit(dir, true)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("open repository cache: %w", err)
	}
	r.remote = git.NewRemote(r.repo.Storer, &gitconfig.RemoteConfig{Name: "origin", URLs: []string{r.url}})
	return r, nil
}

func (r *remote) ctx(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(ctx, remoteTimeout)
	return context.WithValue(ctx, remotesKey{}, r.rules), cancel
}

// RemoteError is a failure to talk to the remote: Message is safe to show
// (it never carries credentials), Err is the cause.
type RemoteError struct {
	Message string
	Err     error
}

func (e *RemoteError) Error() string { return e.Message }
func (e *RemoteError) Unwrap() error { return e.Err }

func (r *remote) problem(what string, err error) error {
	msg := outbound.RemoteProblem(err)
	switch hostKey, isHostKey := errors.AsType[*HostKeyError](err); {
	case isHostKey:
		msg = hostKey.Message
	case isAuthRefused(err):
		msg = "the repository refused the space's deploy key: add its public key (GET /v1/spaces/{spaceId}/git/deploy-key) " +
			"to the repository as a deploy key, with write access for exports"
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed):
		msg = "the repository refused the credentials"
	case errors.Is(err, transport.ErrRepositoryNotFound):
		msg = "the repository was not found"
	}
	return &RemoteError{Message: what + ": " + msg, Err: err}
}

// fetch brings the branch's commits into the cache and returns its head;
// the zero hash when the branch (or the repository) is empty.
func (r *remote) fetch(ctx context.Context) (plumbing.Hash, error) {
	cctx, cancel := r.ctx(ctx)
	defer cancel()
	err := r.remote.FetchContext(cctx, &git.FetchOptions{
		RefSpecs: []gitconfig.RefSpec{gitconfig.RefSpec("+" + r.ref.String() + ":" + trackingRef.String())},
		Auth:     r.auth, Tags: git.NoTags, Force: true, ProxyOptions: r.proxy,
	})
	var noMatch git.NoMatchingRefSpecError
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
	case errors.As(err, &noMatch), errors.Is(err, transport.ErrEmptyRemoteRepository):
		// The branch does not exist yet: the first export creates it.
		if err := r.repo.Storer.RemoveReference(trackingRef); err != nil {
			return plumbing.ZeroHash, err
		}
		return plumbing.ZeroHash, nil
	case ctx.Err() != nil:
		return plumbing.ZeroHash, ctx.Err()
	default:
		return plumbing.ZeroHash, r.problem("fetch", err)
	}
	ref, err := r.repo.Reference(trackingRef, true)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read fetched branch: %w", err)
	}
	return ref.Hash(), nil
}

// push sets the branch to commit, which must descend from the branch's
// head as last fetched. It fails when the remote moved meanwhile.
func (r *remote) push(ctx context.Context, commit plumbing.Hash) error {
	if err := r.repo.Storer.SetReference(plumbing.NewHashReference(pushRef, commit)); err != nil {
		return err
	}
	cctx, cancel := r.ctx(ctx)
	defer cancel()
	err := r.remote.PushContext(cctx, &git.PushOptions{
		RefSpecs: []gitconfig.RefSpec{gitconfig.RefSpec(pushRef.String() + ":" + r.ref.String())},
		Auth:     r.auth, ProxyOptions: r.proxy,
	})
	switch {
	case err == nil, errors.Is(err, git.NoErrAlreadyUpToDate):
		return r.repo.Storer.SetReference(plumbing.NewHashReference(trackingRef, commit))
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return r.problem("push", err)
}

// commitInfo describes a commit for an import's change request.
type commitInfo struct {
	Hash        plumbing.Hash
	Message     string
	AuthorEmail string // the head commit's author's
	Count       int    // commits since the sync point, up to maxCountedCommits
}

const maxCountedCommits = 100

// describe reads a commit's message and counts the commits from since
// (exclusive) to it, following first parents.
func (r *remote) describe(head, since plumbing.Hash) (commitInfo, error) {
	c, err := r.repo.CommitObject(head)
	if err != nil {
		return commitInfo{}, err
	}
	info := commitInfo{Hash: head, Message: c.Message, AuthorEmail: c.Author.Email}
	for cur := c; cur != nil && cur.Hash != since && info.Count < maxCountedCommits; {
		info.Count++
		if cur.NumParents() == 0 {
			break
		}
		if cur, err = cur.Parent(0); err != nil {
			break // a shallow history: counted as far as known
		}
	}
	return info, nil
}

// readFolder returns the files under dir of a commit, by path relative to
// dir, within the bounds of a folder import (Limits); none for the zero
// hash or a commit without that folder.
func (r *remote) readFolder(commit plumbing.Hash, dir string) (map[string][]byte, error) {
	folder := NewFolder(Limits{})
	if commit.IsZero() {
		return folder.Files, nil
	}
	c, err := r.repo.CommitObject(commit)
	if err != nil {
		return nil, err
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	if dir != "" {
		if tree, err = tree.Tree(dir); errors.Is(err, object.ErrDirectoryNotFound) {
			return folder.Files, nil
		} else if err != nil {
			return nil, err
		}
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		if f.Mode != filemode.Regular && f.Mode != filemode.Executable {
			return nil // symbolic links and submodules are not content
		}
		rd, err := f.Reader()
		if err != nil {
			return err
		}
		defer rd.Close()
		return folder.Add(f.Name, rd)
	})
	return folder.Files, err
}

// Author is who a commit is by.
type Author struct {
	Name, Email string
}

// commit makes a commit whose tree is parent's with the folder dir holding
// exactly files (paths to blobs written with store), and returns it; the
// zero hash when that tree is parent's own (nothing to commit).
func (r *remote) commit(parent plumbing.Hash, dir string, files map[string]plumbing.Hash, author, committer Author, message string, when time.Time) (plumbing.Hash, error) {
	folder, err := r.writeTree(files)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	var parentTree *object.Tree
	var parents []plumbing.Hash
	if !parent.IsZero() {
		pc, err := r.repo.CommitObject(parent)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		if parentTree, err = pc.Tree(); err != nil {
			return plumbing.ZeroHash, err
		}
		parents = []plumbing.Hash{parent}
	}
	root, err := r.splice(parentTree, splitDir(dir), folder)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if parentTree != nil && root == parentTree.Hash {
		return plumbing.ZeroHash, nil
	}
	c := &object.Commit{
		Author:       object.Signature{Name: author.Name, Email: author.Email, When: when},
		Committer:    object.Signature{Name: committer.Name, Email: committer.Email, When: when},
		Message:      message,
		TreeHash:     root,
		ParentHashes: parents,
	}
	obj := r.repo.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}

func splitDir(dir string) []string {
	if dir == "" {
		return nil
	}
	return strings.Split(dir, "/")
}

// splice returns the tree t with the entry at path replaced by the tree
// hash sub (an empty folder removes the entry), writing the trees on the way.
func (r *remote) splice(t *object.Tree, path []string, sub plumbing.Hash) (plumbing.Hash, error) {
	if len(path) == 0 {
		return sub, nil
	}
	var entries []object.TreeEntry
	var child *object.Tree
	if t != nil {
		for _, e := range t.Entries {
			if e.Name == path[0] {
				if e.Mode == filemode.Dir {
					var err error
					if child, err = t.Tree(e.Name); err != nil {
						return plumbing.ZeroHash, err
					}
				}
				continue
			}
			entries = append(entries, e)
		}
	}
	h, err := r.splice(child, path[1:], sub)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if h != emptyTree {
		entries = append(entries, object.TreeEntry{Name: path[0], Mode: filemode.Dir, Hash: h})
	}
	return r.storeTree(entries)
}

// emptyTree is the id Git gives the tree with no entries.
var emptyTree = plumbing.NewHash("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// writeTree writes the trees of files (slash paths to blobs written with
// store) and returns the root tree's hash.
func (r *remote) writeTree(files map[string]plumbing.Hash) (plumbing.Hash, error) {
	type dirNode struct {
		files map[string]plumbing.Hash
		dirs  map[string]*dirNode
	}
	newDir := func() *dirNode { return &dirNode{files: map[string]plumbing.Hash{}, dirs: map[string]*dirNode{}} }
	root := newDir()
	for p, h := range files {
		parts := strings.Split(path.Clean(p), "/")
		d := root
		for _, seg := range parts[:len(parts)-1] {
			if d.dirs[seg] == nil {
				d.dirs[seg] = newDir()
			}
			d = d.dirs[seg]
		}
		d.files[parts[len(parts)-1]] = h
	}
	var write func(d *dirNode) (plumbing.Hash, error)
	write = func(d *dirNode) (plumbing.Hash, error) {
		entries := make([]object.TreeEntry, 0, len(d.files)+len(d.dirs))
		for name, h := range d.files {
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
		}
		for name, sub := range d.dirs {
			h, err := write(sub)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		return r.storeTree(entries)
	}
	return write(root)
}

// storeTree writes a tree object of entries, in Git's order: by name, a
// folder's name compared as if it ended in "/".
func (r *remote) storeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	t := &object.Tree{Entries: entries}
	obj := &plumbing.MemoryObject{}
	if err := t.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	rd, err := obj.Reader()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	data, err := io.ReadAll(rd)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return r.store(plumbing.TreeObject, data)
}

// store writes an object unless the cache has it already: an export
// rewrites every file of the folder, and most are unchanged.
func (r *remote) store(typ plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := plumbing.ComputeHash(typ, data)
	if r.repo.Storer.HasEncodedObject(h) == nil {
		return h, nil
	}
	obj := r.repo.Storer.NewEncodedObject()
	obj.SetType(typ)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.repo.Storer.SetEncodedObject(obj)
}

// RedactURL returns a repository URL without its credentials; "" when it
// does not parse.
func RedactURL(raw string) string {
	if _, ok := outbound.ScpLike(raw); ok {
		return raw // user@host:path carries no password
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	if u.Scheme == "ssh" && u.User != nil {
		u.User = url.User(u.User.Username()) // the ssh user is no secret, and which one matters
	} else {
		u.User = nil
	}
	return u.String()
}
