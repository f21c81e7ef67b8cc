package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/outbound"
)

// ImportLimits bound the fetching that website imports and authoring
// batches with files given by URL do: how much and for how long one request
// fetches, and how many such requests run at once. A zero field takes its
// default.
type ImportLimits struct {
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
	// beyond, requests are answered 429 with Retry-After.
	PerOrganization, PerServer int
}

// Default import limits.
const (
	DefaultImportBytes      = 64 << 20
	DefaultImportTimeout    = 60 * time.Second
	DefaultFileFetchTimeout = 30 * time.Second
	DefaultImportsPerOrg    = 2
	DefaultImportsPerServer = 4
	importRetryAfterSeconds = 10
	importMarkdownAllowance = 4 << 10 // the title PageMarkdown adds, escaped, and its blank line
)

func (l ImportLimits) withDefaults() ImportLimits {
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

// imports holds the limits and counts the imports running.
type imports struct {
	ImportLimits
	mu      sync.Mutex
	running int
	byOrg   map[string]int
}

func newImports(l ImportLimits) *imports {
	return &imports{ImportLimits: l.withDefaults(), byOrg: map[string]int{}}
}

// startImport takes one of the import slots of sp's organization and of
// the server, or answers 429 with Retry-After when none is free. The caller
// calls the returned function when the request is done.
func (s *Server) startImport(w http.ResponseWriter, sp *quire.Space) (func(), error) {
	im := s.imports
	im.mu.Lock()
	defer im.mu.Unlock()
	var err error
	switch {
	case im.byOrg[sp.OrgID] >= im.PerOrganization:
		err = errorf(quire.CodeTooManyRequests, "%d imports are running in this organization, the most at once; try again in a moment", im.PerOrganization)
	case im.running >= im.PerServer:
		err = errorf(quire.CodeTooManyRequests, "%d imports are running on this server, the most at once; try again in a moment", im.PerServer)
	}
	if err != nil {
		w.Header().Set("Retry-After", strconv.Itoa(importRetryAfterSeconds))
		return nil, err
	}
	im.running++
	im.byOrg[sp.OrgID]++
	var once sync.Once
	return func() {
		once.Do(func() {
			im.mu.Lock()
			defer im.mu.Unlock()
			im.running--
			if im.byOrg[sp.OrgID]--; im.byOrg[sp.OrgID] == 0 {
				delete(im.byOrg, sp.OrgID)
			}
		})
	}, nil
}

// fetchBudget counts what one request fetches against ImportLimits.Bytes.
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
