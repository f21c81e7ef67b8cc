package authoring

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/outbound"
)

// Limits bound the fetching that website imports and authoring batches
// with files given by URL do: how much and for how long one request fetches,
// and how many such requests run at once. A zero field takes its default.
type Limits struct {
	// Bytes bounds what one import or batch fetches, all responses
	// together: 64 MiB.
	Bytes int64
	// Timeout bounds a website import, from its first fetch to its last
	// page converted: 60 s.
	Timeout time.Duration
	// FileTimeout bounds the fetches of one batch's files: 30 s.
	FileTimeout time.Duration
	// PerOrganization bounds the imports and fetching batches running at
	// once in one organization (2), PerServer those on this server (4);
	// beyond, requests are refused with quire.CodeTooManyRequests, to be
	// tried again in RetryAfterSeconds.
	PerOrganization, PerServer int
}

// Default limits.
const (
	DefaultImportBytes      = 64 << 20
	DefaultImportTimeout    = 60 * time.Second
	DefaultFileFetchTimeout = 30 * time.Second
	DefaultImportsPerOrg    = 2
	DefaultImportsPerServer = 4
	// RetryAfterSeconds is how long a request refused for want of a free
	// slot is told to wait.
	RetryAfterSeconds       = 10
	importMarkdownAllowance = 4 << 10 // the title PageMarkdown adds, escaped, and its blank line
)

// MaxFetchedFile bounds a file fetched from a URL.
const MaxFetchedFile = 25 << 20

func (l Limits) withDefaults() Limits {
	if l.Bytes <= 0 {
		l.Bytes = DefaultImportBytes
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultImportTimeout
	}
	if l.FileTimeout <= 0 {
		l.FileTimeout = DefaultFileFetchTimeout
	}
	if l.PerOrganization <= 0 {
		l.PerOrganization = DefaultImportsPerOrg
	}
	if l.PerServer <= 0 {
		l.PerServer = DefaultImportsPerServer
	}
	return l
}

// slots counts the imports and fetching batches running.
type slots struct {
	mu      sync.Mutex
	running int
	byOrg   map[string]int
}

// Start takes one of the import slots of the organization and of the
// server, or fails with quire.CodeTooManyRequests when none is free. The
// caller calls the returned function when its request is done. Imports and
// batches that fetch files take their slot themselves; Start is for a caller
// that refuses a request before reading it when the server is busy.
func (a *Author) Start(orgID string) (func(), error) {
	l, im := a.Limits.withDefaults(), &a.slots
	im.mu.Lock()
	defer im.mu.Unlock()
	switch {
	case im.byOrg[orgID] >= l.PerOrganization:
		return nil, quire.Errorf(quire.CodeTooManyRequests, "%d imports are running in this organization, the most at once; try again in a moment", l.PerOrganization)
	case im.running >= l.PerServer:
		return nil, quire.Errorf(quire.CodeTooManyRequests, "%d imports are running on this server, the most at once; try again in a moment", l.PerServer)
	}
	if im.byOrg == nil {
		im.byOrg = map[string]int{}
	}
	im.running++
	im.byOrg[orgID]++
	var once sync.Once
	return func() {
		once.Do(func() {
			im.mu.Lock()
			defer im.mu.Unlock()
			im.running--
			if im.byOrg[orgID]--; im.byOrg[orgID] == 0 {
				delete(im.byOrg, orgID)
			}
		})
	}, nil
}

// fetchBudget counts what one request fetches against Limits.Bytes.
type fetchBudget struct {
	f    outbound.Fetcher
	left int64
}

// get fetches url, up to max bytes and what is left of the budget. A body
// over max is the fetcher's error; one over what is left, errOverBudget.
func (b *fetchBudget) get(ctx context.Context, url string, max int64) ([]byte, string, error) {
	limit, budgeted := max, false
	if b.left < limit {
		limit, budgeted = b.left, true
	}
	data, contentType, err := b.f.Get(ctx, url, limit)
	if fe, ok := errors.AsType[*outbound.Error](err); ok && fe.Code == outbound.CodeTooLarge && budgeted {
		return nil, "", errOverBudget
	}
	b.left -= int64(len(data))
	return data, contentType, err
}

var errOverBudget = errors.New("over the fetch budget")

// fetchProblem says why a fetch failed without naming what fe.Err may
// name: internal addresses.
func fetchProblem(err error) string {
	if fe, ok := errors.AsType[*outbound.Error](err); ok {
		return fe.Message + " (" + fe.Code + ")"
	}
	return err.Error()
}

// mib writes a byte count for messages: "64 MiB", "256 KiB", or bytes.
func mib(n int64) string {
	switch {
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// seconds writes a duration for messages: "60 s", or as Go does when not
// whole seconds.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%d s", d/time.Second)
	}
	return d.String()
}
