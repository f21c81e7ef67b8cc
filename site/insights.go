package site

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/quiredocs/quire/store"
)

// Insights: the published sites count page views, searches and questions
// (the reference's site insights events) per site, UTC hour and what they
// concern, in memory, and add the counts to the database in one batch every
// insightsFlush, so that reading a page writes nothing. No cookie is set and
// no address, user agent or visitor id is kept: counts are all there is.
// Counts not yet written when a server stops uncleanly are lost; counts
// older than insightsKept are deleted, once a day.

const (
	insightsFlush   = 5 * time.Second
	insightsKept    = 2 * 365 * 24 * time.Hour // how long counts are kept
	insightsPrune   = 24 * time.Hour           // how often those older are deleted
	maxInsightKeys  = 10_000                   // distinct counts held between two writes
	maxInsightPath  = 512                      // bytes of a url path counted
	maxInsightQuery = 128                      // characters of a search counted
)

// insights holds the counts not yet written.
type insights struct {
	db     *store.DB
	now    func() time.Time
	mu     sync.Mutex
	counts map[store.InsightKey]int64
	timer  *time.Timer // the write to come; nil when none is due
	pruned time.Time   // when counts older than insightsKept were last deleted
	err    func(error)
}

func newInsights(db *store.DB, now func() time.Time, logErr func(error)) *insights {
	return &insights{db: db, now: now, counts: map[store.InsightKey]int64{}, err: logErr}
}

// add counts one event of k; its SiteID and the rest are set, Hour is now's.
func (in *insights) add(k store.InsightKey) {
	k.Hour = in.now().UTC().Truncate(time.Hour).Unix()
	in.mu.Lock()
	defer in.mu.Unlock()
	if _, ok := in.counts[k]; !ok && len(in.counts) >= maxInsightKeys {
		return // a flood of distinct paths or queries: drop rather than grow
	}
	in.counts[k]++
	if in.timer == nil {
		in.timer = time.AfterFunc(insightsFlush, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := in.flush(ctx); err != nil {
				in.err(err)
			}
		})
	}
}

// flush writes the counts held; on failure they are kept for the next.
func (in *insights) flush(ctx context.Context) error {
	in.mu.Lock()
	counts := in.counts
	in.counts = map[store.InsightKey]int64{}
	if in.timer != nil {
		in.timer.Stop()
		in.timer = nil
	}
	in.mu.Unlock()
	err := in.db.AddInsightCounts(ctx, counts)
	if err == nil {
		if cutoff, due := in.pruneDue(); due {
			counts = nil // written: nothing to keep for the next flush
			err = in.db.DeleteInsightCountsBefore(ctx, cutoff)
		}
	}
	if err != nil {
		in.mu.Lock()
		for k, n := range counts {
			if _, ok := in.counts[k]; ok || len(in.counts) < maxInsightKeys {
				in.counts[k] += n
			}
		}
		in.mu.Unlock()
	}
	return err
}

// pruneDue reports whether counts before cutoff are to be deleted now: one
// try a day, whatever comes of it.
func (in *insights) pruneDue() (cutoff time.Time, due bool) {
	now := in.now()
	in.mu.Lock()
	defer in.mu.Unlock()
	if now.Sub(in.pruned) < insightsPrune {
		return time.Time{}, false
	}
	in.pruned = now
	return now.Add(-insightsKept), true
}

// FlushInsights writes the insights counted and not yet written: when a
// server stops, and in tests.
func (s *Server) FlushInsights(ctx context.Context) error { return s.insights.flush(ctx) }

// countEvent counts an event of type typ of rq: of page id of loc ("" for
// none, or a page not found, whose path is counted), in display context
// ctx. HEAD requests, which read nothing, are not counted.
func (s *Server) countEvent(r *http.Request, rq *request, typ, displayContext string, loc location, pageID, query string) {
	if r.Method == http.MethodHead {
		return
	}
	k := store.InsightKey{SiteID: rq.site.ID, EventType: typ, DisplayContext: displayContext, Page: pageID,
		Authenticated: rq.visitor != nil && rq.visitor.Claims != nil}
	if loc.section != nil {
		k.SiteSection = loc.section.ID
	}
	if loc.siteSpace != nil {
		k.SiteSpace, k.Space = loc.siteSpace.ID, loc.siteSpace.Space.ID
	}
	if pageID == "" && typ == "page_view" {
		k.URLPath = truncateBytes("/"+rq.rest, maxInsightPath)
	}
	if query != "" {
		k.Query = truncateRunes(strings.ToLower(strings.Join(strings.Fields(query), " ")), maxInsightQuery)
	}
	s.insights.add(k)
}

func truncateBytes(s string, n int) string {
	for len(s) > n {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
