package revision

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"strconv"
	"sync"

	"github.com/quiredocs/quire/internal/gz"
	"github.com/quiredocs/quire/internal/lru"
)

// Encoded answers of reads (the API's pages and page lists, by a key that
// names what their bytes are made of) are kept here, with the rest of what
// reads derive from immutable content: a new revision has a new root, hence
// new keys, so nothing is invalidated and old entries age out. An answer
// costs twice its body (room for its gzipped form). Page lists are kept
// apart (Lists): each merge makes a new list of megabytes, which would push
// every page read out of Answers within a second.

// Answer is one encoded answer, gzipped on first demand. Its bytes may be in
// parts: a page list is written from its runs as they are cached, rather
// than copied into one buffer for each revision.
type Answer struct {
	Body   [][]byte
	Size   int      // of Body
	Length []string // Content-Length of Body, as a header value
	gzOnce sync.Once
	gz     [][]byte // nil when gzip saves nothing
	gzLen  []string // Content-Length of gz
}

// NewAnswer is an answer of body.
func NewAnswer(body []byte) *Answer {
	return NewAnswerParts([][]byte{body})
}

// NewAnswerParts is an answer of body's parts end to end.
func NewAnswerParts(body [][]byte) *Answer {
	a := &Answer{Body: body, Size: PartsSize(body)}
	a.Length = []string{strconv.Itoa(a.Size)}
	return a
}

// NewAnswerGzipped is an answer whose gzipped form is made already.
func NewAnswerGzipped(body, gz [][]byte) *Answer {
	a := NewAnswerParts(body)
	a.gzOnce.Do(func() {
		if n := PartsSize(gz); n < a.Size {
			a.gz, a.gzLen = gz, []string{strconv.Itoa(n)}
		}
	})
	return a
}

// PartsSize is the bytes of parts together.
func PartsSize(parts [][]byte) int {
	n := 0
	for _, b := range parts {
		n += len(b)
	}
	return n
}

// Gzipped is the answer gzipped and its Content-Length, made on first
// demand; nil when gzip saves nothing.
func (a *Answer) Gzipped() (body [][]byte, length []string) {
	a.gzOnce.Do(func() {
		if z := gz.Fast(bytes.Join(a.Body, nil)); z != nil {
			a.gz, a.gzLen = [][]byte{z}, []string{strconv.Itoa(len(z))}
		}
	})
	return a.gz, a.gzLen
}

// cost is what the answer counts against the cache: its body and room for
// its gzipped form. Parts shared with other answers count in each.
func (a *Answer) cost() int {
	if a.gz != nil && len(a.Body) > 1 {
		return a.Size + PartsSize(a.gz)
	}
	return 2 * a.Size
}

// Answers holds encoded answers and builds each missing one once, however
// many requests ask for it meanwhile.
type Answers struct {
	answers *lru.Cache[string, *Answer]

	mu       sync.Mutex
	building map[string]*answerBuild
}

// answerBuild is a build under way; done closes when answer or err is set.
type answerBuild struct {
	done   chan struct{}
	answer *Answer
	err    error
}

func newAnswers(name string) *Answers {
	return &Answers{answers: lru.New[string, *Answer](name), building: map[string]*answerBuild{}}
}

// Get is the answer named key, built by build when missing. Errors are not
// kept: the next request builds again.
func (c *Answers) Get(ctx context.Context, key string, build func() (*Answer, error)) (*Answer, error) {
	if a, ok := c.answers.Get(key); ok {
		return a, nil
	}
	c.mu.Lock()
	if b, ok := c.building[key]; ok {
		c.mu.Unlock()
		select {
		case <-b.done:
			return b.answer, b.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	b := &answerBuild{done: make(chan struct{}), err: errors.New("answer build failed")}
	c.building[key] = b
	c.mu.Unlock()
	defer func() { // also when build panics, so that waiters wake
		c.mu.Lock()
		delete(c.building, key)
		c.mu.Unlock()
		close(b.done)
	}()
	a, err := build()
	if err != nil {
		b.err = err
		return nil, err
	}
	b.answer, b.err = a, nil
	c.answers.Add(key, a, a.cost()+len(key)+128)
	return a, nil
}

// Answers are the encoded answers of page reads and the like.
func (r *Reader) Answers() *Answers { return r.answers }

// Lists are the encoded page lists, kept apart from Answers.
func (r *Reader) Lists() *Answers { return r.lists }

// Run is an encoded run of pages of a page list: their JSON objects,
// comma-separated, and those deflated, ending with a sync flush.
type Run struct{ JSON, Z []byte }

// keepRun keeps run under key, named by what its bytes are made of.
func (r *Reader) keepRun(key [sha256.Size]byte, run *Run) {
	r.runs.Add(key, run, len(run.JSON)+len(run.Z)+64)
}

// UntilChanged is the answer named key, built by build when missing and
// kept until a write moves the store's change count (the key names the
// count too). The count is read before build runs, so a change meanwhile is
// a miss next time. kept is false when the count cannot be trusted: then
// the answer is built afresh and kept nowhere.
func (r *Reader) UntilChanged(ctx context.Context, key string, build func() ([]byte, error)) (a *Answer, kept bool, err error) {
	changes, trusted := r.db.ChangeCount()
	if !trusted {
		body, err := build()
		if err != nil {
			return nil, false, err
		}
		return NewAnswer(body), false, nil
	}
	a, err = r.answers.Get(ctx, key+"\x00"+strconv.FormatUint(changes, 10), Encoded(build))
	return a, true, err
}
