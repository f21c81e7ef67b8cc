package main

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"
)

// options are the settings of one measurement.
type options struct {
	conns    int           // connections of the closed loop
	duration time.Duration // of each round, and of each one-at-a-time search
	rounds   int           // alternating Quire and bare rounds; the median is kept
	query    string        // the word searched under load
	readGoal float64       // the Quire / bare goal of GET S and page reads
	// serverCPU, when set, is the processor time Quire has used so far: what
	// it uses during the bare rounds, when it should be idle, is reported.
	serverCPU func() time.Duration
}

// request is one kind of request measured under load.
type request struct {
	name, uri string
	goal      float64 // Quire / bare
	size      int     // bytes of the answer, as sent
	encoding  string  // its Content-Encoding
	quire     stats   // medians of the rounds
	bare      stats
}

func (r *request) ratio() float64 { return r.quire.rate / r.bare.rate }

// search is a search sent one request at a time, over one connection.
type search struct {
	query   string
	goalP50 time.Duration
	size    int
	s       stats
}

// result is everything measured on one space.
type result struct {
	db       string
	pages    int
	seedTime time.Duration
	requests []*request
	searches []*search
	peakRSS  int64 // bytes; 0 when unknown (a server in this process)
	// idleCPU is the share of a core Quire used during the bare rounds.
	idleCPU float64
}

// measure seeds a space of n pages through c (a server holding one
// organization of c's token's user), then measures each request against
// Quire and the bare handler b, which it gives the same bytes.
func measure(ctx context.Context, c *client, b *bare, db string, n int, o options) (*result, error) {
	t := time.Now()
	co, err := seed(ctx, c, n)
	if err != nil {
		return nil, fmt.Errorf("seed %d pages: %w", n, err)
	}
	sp := "/v1/spaces/" + co.spaceID
	// A first search brings the index up to date, which the server's
	// indexer would otherwise do in the middle of a round.
	if _, err := fetch(ctx, c, searchURI(sp, o.query)); err != nil {
		return nil, err
	}
	res := &result{db: db, pages: n, seedTime: time.Since(t)}
	res.requests = []*request{
		{name: "`GET /v1/spaces/{id}`", uri: sp, goal: o.readGoal},
		{name: "`GET /v1/spaces/{id}/content/page/{pageId}`", uri: sp + "/content/page/" + co.pageID, goal: o.readGoal},
		{name: "`GET /v1/spaces/{id}/content/pages`", uri: sp + "/content/pages", goal: 0.3},
		{name: "`GET /v1/spaces/{id}/search?query=" + o.query + "`", uri: searchURI(sp, o.query), goal: 0.2},
	}
	var idle time.Duration // Quire's processor time during the bare rounds
	for _, r := range res.requests {
		a, err := fetch(ctx, c, r.uri)
		if err != nil {
			return nil, err
		}
		r.size, r.encoding = len(a.body), a.contentEncoding
		b.set(r.uri, a)
		var qs, bs []stats
		for range o.rounds {
			s, err := load(ctx, c.base, r.uri, c.token, o.conns, o.duration)
			if err != nil {
				return nil, fmt.Errorf("Quire: %w", err)
			}
			qs = append(qs, s)
			settle(s)
			cpu := o.cpu()
			if s, err = load(ctx, b.url, r.uri, c.token, o.conns, o.duration); err != nil {
				return nil, fmt.Errorf("bare: %w", err)
			}
			idle += o.cpu() - cpu
			bs = append(bs, s)
		}
		r.quire, r.bare = median(qs), median(bs)
	}
	res.idleCPU = float64(idle) / float64(time.Duration(len(res.requests)*o.rounds)*o.duration)
	// One at a time: the word under load, a word in one page, a word in
	// every page, and the commonest of all (a stop word on PostgreSQL).
	goal := 2 * time.Millisecond
	if n > 1000 {
		goal = 5 * time.Millisecond
	}
	for _, s := range []*search{{query: o.query, goalP50: goal}, {query: rareWord(n / 2), goalP50: goal},
		{query: "server", goalP50: 10 * time.Millisecond}, {query: "the", goalP50: 10 * time.Millisecond}} {
		uri := searchURI(sp, s.query)
		a, err := fetch(ctx, c, uri)
		if err != nil {
			return nil, err
		}
		s.size = len(a.body)
		if s.s, err = load(ctx, c.base, uri, c.token, 1, o.duration); err != nil {
			return nil, fmt.Errorf("Quire: %w", err)
		}
		settle(s.s)
		res.searches = append(res.searches, s)
	}
	return res, nil
}

func (o options) cpu() time.Duration {
	if o.serverCPU == nil {
		return 0
	}
	return o.serverCPU()
}

// settle waits for the requests a round cut off, which the server may
// still be working on, to end before the next round starts.
func settle(s stats) {
	time.Sleep(min(2*time.Second, max(100*time.Millisecond, s.max)))
}

func searchURI(spacePath, query string) string {
	return spacePath + "/search?query=" + url.QueryEscape(query)
}

// median is the median of each figure of the rounds, and their errors.
func median(ss []stats) stats {
	pick := func(f func(stats) float64) float64 {
		v := make([]float64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	dur := func(f func(stats) time.Duration) time.Duration {
		return time.Duration(pick(func(s stats) float64 { return float64(f(s)) }))
	}
	errs := 0 // all of them: one is too many
	for _, s := range ss {
		errs += s.errs
	}
	return stats{
		rate: pick(func(s stats) float64 { return s.rate }),
		errs: errs,
		p50:  dur(func(s stats) time.Duration { return s.p50 }),
		p99:  dur(func(s stats) time.Duration { return s.p99 }),
		max:  dur(func(s stats) time.Duration { return s.max }),
	}
}
