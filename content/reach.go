package content

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// The kinds an object is met as on a walk from a root. One stored object
// may be met as several (a body's bytes may equal a chunk's), and it is
// walked as each.
const (
	kindRoot uint8 = 1 << iota
	kindPage
	kindFile
	kindPageChunk
	kindFileChunk
	kindBody
)

// Reached records the objects walks from roots have met, and the blobs
// their files name. Garbage collection keeps what it holds; a backup check
// uses it to see that every object and blob a revision needs is there.
type Reached struct {
	objects map[[32]byte]uint8 // kinds met as
	// Blobs holds the blob key of every file met.
	Blobs map[string]bool
	// FetchBodies makes walks fetch and check page bodies too; without it
	// they are recorded unread (a collection needs only their hashes).
	FetchBodies bool
}

// NewReached returns an empty record.
func NewReached() *Reached {
	return &Reached{objects: map[[32]byte]uint8{}, Blobs: map[string]bool{}}
}

// Has reports whether the object hash was reached.
func (r *Reached) Has(hash string) bool {
	k, ok := hashKey(hash)
	return ok && r.objects[k] != 0
}

// Objects is how many distinct objects were reached.
func (r *Reached) Objects() int { return len(r.objects) }

func hashKey(hash string) (k [32]byte, ok bool) {
	if len(hash) != 64 {
		return k, false
	}
	_, err := hex.Decode(k[:], []byte(hash))
	return k, err == nil
}

type pending struct {
	hash string
	kind uint8
}

// Walk adds to r every object reachable from roots ("" is the empty tree),
// fetching them level by level, and checks that each object fetched has the
// hash it is stored under. What r already reached as a kind is not walked
// again: a successful walk reaches everything below what it reaches, so
// after an error r must be thrown away. A missing object is an error.
func (r *Reached) Walk(roots []string, fetch Fetch) error {
	var level []pending
	for _, root := range roots {
		if root != "" {
			level = append(level, pending{root, kindRoot})
		}
	}
	for len(level) > 0 {
		var todo []pending
		var hashes []string
		for _, p := range level {
			k, ok := hashKey(p.hash)
			if !ok {
				return fmt.Errorf("object %q: not a hash", p.hash)
			}
			if r.objects[k]&p.kind != 0 {
				continue
			}
			r.objects[k] |= p.kind
			if p.kind == kindBody && !r.FetchBodies {
				continue
			}
			todo = append(todo, p)
			hashes = append(hashes, p.hash)
		}
		if len(todo) == 0 {
			break
		}
		objs, err := fetch(hashes)
		if err != nil {
			return err
		}
		level = level[:0:0]
		for _, p := range todo {
			b, ok := objs[p.hash]
			if !ok {
				return fmt.Errorf("object %s is missing", p.hash)
			}
			if ObjectHash(b) != p.hash {
				return fmt.Errorf("object %s: its bytes have another hash", p.hash)
			}
			next, err := r.children(p, b)
			if err != nil {
				return err
			}
			level = append(level, next...)
		}
	}
	return nil
}

// children returns what object p, of bytes b, refers to.
func (r *Reached) children(p pending, b []byte) ([]pending, error) {
	var out []pending
	addList := func(l list, item, chunk uint8) {
		for _, h := range l.Items {
			out = append(out, pending{h, item})
		}
		for _, h := range l.Chunks {
			out = append(out, pending{h, chunk})
		}
	}
	var err error
	switch p.kind {
	case kindRoot:
		var o rootObject
		if err = json.Unmarshal(b, &o); err == nil {
			addList(o.Pages, kindPage, kindPageChunk)
			addList(o.Files, kindFile, kindFileChunk)
		}
	case kindPage:
		var o pageObject
		if err = json.Unmarshal(b, &o); err == nil {
			if o.Body != "" {
				out = append(out, pending{o.Body, kindBody})
			}
			addList(o.Children, kindPage, kindPageChunk)
		}
	case kindPageChunk, kindFileChunk:
		var items []string
		if err = json.Unmarshal(b, &items); err == nil {
			item := kindPage
			if p.kind == kindFileChunk {
				item = kindFile
			}
			addList(list{Items: items}, item, 0)
		}
	case kindFile:
		var o fileObject
		if err = json.Unmarshal(b, &o); err == nil {
			r.Blobs[o.Blob] = true
		}
	}
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", p.hash, err)
	}
	return out, nil
}
