package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The soak: a mixed workload sent open loop, at a fixed rate whatever the
// answers take (requests are sent on a schedule, not when the one before
// returns, so a slow server meets the load it would meet in production),
// spread over one or several servers, for a duration or a number of
// requests. Latency is counted from when a request was due, so time spent
// waiting behind a stalled one is counted too.

// soakOptions are the settings of one soak.
type soakOptions struct {
	rate     float64       // requests a second
	duration time.Duration // how long, unless requests is set
	requests int           // how many, when set
	pages    int           // the size of the space read
	maxBusy  int           // requests in flight at most; one due beyond is counted as an error
}

// Request kinds, by share of the load.
const (
	kindRead   = "read"   // pages and lists, 80 %
	kindSearch = "search" // 10 %
	kindAuthor = "author" // change requests: create, edit, merge, 10 %
)

var soakKinds = []string{kindRead, kindSearch, kindAuthor}

// soakLabels name each request of the workload, in the report's order.
var soakLabels = []string{"`GET` a page", "`GET` the page list", "`GET` the space", "`GET` the organization's spaces",
	"`GET` the space's comments", "`GET` search", "`POST` a change request", "`POST` its content (one page updated)", "`POST` its merge"}

// soakReq is one request of the workload.
type soakReq struct {
	kind, label, method, uri string
	body                     []byte
	after                    func(status int, body []byte) // sees the answer, when set
}

// soakResult is what one soak measured.
type soakResult struct {
	name    string
	servers int
	o       soakOptions
	elapsed time.Duration // from the first request due to the last answer
	sent    int
	kinds   map[string]*soakStats
	labels  map[string]*soakStats
	all     *soakStats
	// memory of each server, in bytes: resident after seeding, and after
	// the soak resident, peak and the Go heap in use; none when the servers
	// are in this process.
	rssBefore, rssAfter, peakAfter, heapAfter []int64
	cpu                                       []time.Duration // processor time of each server during the soak
}

type soakStats struct {
	lat      []time.Duration // of the 2xx answers
	errs     int
	firstErr string
}

func (s *soakStats) add(d time.Duration, err string) {
	if err != "" {
		if s.errs == 0 {
			s.firstErr = err
		}
		s.errs++
		return
	}
	s.lat = append(s.lat, d)
}

func (s *soakStats) count() int { return len(s.lat) + s.errs }

func (s *soakStats) quantile(q float64) time.Duration {
	if len(s.lat) == 0 {
		return 0
	}
	return s.lat[min(len(s.lat)-1, int(q*float64(len(s.lat))))]
}

// workload draws the requests of a soak over a space seeded beforehand.
type workload struct {
	co    *corpus
	bases []string
	token string
	http  *http.Client

	mu      sync.Mutex
	created []draft // change requests made, to edit
	edited  []draft // change requests edited, to merge
	nextCR  atomic.Int64
}

// draft is a change request of the soak, pinned to the server that made it
// (a client session keeps to one server), editing one page: the next page
// for each change request, so that those in flight do not conflict.
type draft struct {
	base, path, page string
	n                int64
}

// next answers the request due as the nth.
func (w *workload) next(n int, r *rand.Rand) soakReq {
	base := w.bases[n%len(w.bases)]
	sp := base + "/v1/spaces/" + w.co.spaceID
	switch x := r.IntN(100); {
	case x < 80:
		switch y := r.IntN(10); {
		case y < 5:
			return soakReq{kind: kindRead, label: soakLabels[0], method: "GET", uri: sp + "/content/page/" + w.co.pageIDs[r.IntN(len(w.co.pageIDs))]}
		case y < 7:
			return soakReq{kind: kindRead, label: soakLabels[1], method: "GET", uri: sp + "/content/pages"}
		case y < 8:
			return soakReq{kind: kindRead, label: soakLabels[2], method: "GET", uri: sp}
		case y < 9:
			return soakReq{kind: kindRead, label: soakLabels[3], method: "GET", uri: base + "/v1/orgs/" + w.co.orgID + "/spaces"}
		default:
			return soakReq{kind: kindRead, label: soakLabels[4], method: "GET", uri: sp + "/comments"}
		}
	case x < 90:
		q := topics[r.IntN(len(topics))]
		if r.IntN(4) == 0 {
			q = rareWord(r.IntN(len(w.co.pageIDs)))
		}
		return soakReq{kind: kindSearch, label: soakLabels[5], method: "GET", uri: sp + "/search?query=" + url.QueryEscape(q)}
	}
	return w.author(base)
}

// author is the next step of authoring: merge a change request that was
// edited, else edit one that was made, else make one.
func (w *workload) author(base string) soakReq {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.edited) > 0 {
		d := w.edited[0]
		w.edited = w.edited[1:]
		return soakReq{kind: kindAuthor, label: soakLabels[8], method: "POST", uri: d.base + d.path + "/merge"}
	}
	if len(w.created) > 0 {
		d := w.created[0]
		w.created = w.created[1:]
		body, _ := json.Marshal(map[string]any{"changes": []any{map[string]any{"operation": "update_page", "page": d.page,
			"document": map[string]any{"markdown": pageBody(int(d.n)) + "\nEdited by the soak.\n"}}}})
		return soakReq{kind: kindAuthor, label: soakLabels[7], method: "POST", uri: d.base + d.path + "/content?compat=false", body: body, after: func(status int, _ []byte) {
			if status == http.StatusOK {
				w.mu.Lock()
				w.edited = append(w.edited, d)
				w.mu.Unlock()
			}
		}}
	}
	crs := "/v1/spaces/" + w.co.spaceID + "/change-requests"
	return soakReq{kind: kindAuthor, label: soakLabels[6], method: "POST", uri: base + crs, after: func(status int, b []byte) {
		var cr idJSON
		if status != http.StatusCreated || json.Unmarshal(b, &cr) != nil {
			return
		}
		n := w.nextCR.Add(1)
		w.mu.Lock()
		w.created = append(w.created, draft{base: base, path: crs + "/" + cr.ID, page: w.co.pageIDs[int(n)%len(w.co.pageIDs)], n: n})
		w.mu.Unlock()
	}}
}

// soak seeds a space of o.pages pages through c, calls seeded (when not
// nil), then sends the workload to bases (c's server among them), round
// robin.
func soak(ctx context.Context, c *client, bases []string, o soakOptions, stderr io.Writer, seeded func()) (*soakResult, error) {
	co, err := seed(ctx, c, o.pages)
	if err != nil {
		return nil, fmt.Errorf("seed %d pages: %w", o.pages, err)
	}
	// A first search brings the index up to date.
	if _, err := fetch(ctx, c, searchURI("/v1/spaces/"+co.spaceID, "replication")); err != nil {
		return nil, err
	}
	if seeded != nil {
		seeded()
	}
	tr := &http.Transport{MaxIdleConns: o.maxBusy, MaxIdleConnsPerHost: o.maxBusy, IdleConnTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	w := &workload{co: co, bases: bases, token: c.token, http: &http.Client{Transport: tr, Timeout: 10 * time.Second}}
	res := &soakResult{servers: len(bases), o: o, kinds: map[string]*soakStats{}, labels: map[string]*soakStats{}, all: &soakStats{}}
	for _, k := range soakKinds {
		res.kinds[k] = &soakStats{}
	}
	for _, l := range soakLabels {
		res.labels[l] = &soakStats{}
	}

	total := o.requests
	if total == 0 {
		total = int(o.rate * o.duration.Seconds())
	}
	interval := time.Duration(float64(time.Second) / o.rate)
	var (
		mu       sync.Mutex
		inflight sync.WaitGroup
		busy     atomic.Int32
		r        = rand.New(rand.NewPCG(1, 2))
		start    = time.Now()
		report   = start
	)
	record := func(q soakReq, d time.Duration, err string) {
		mu.Lock()
		res.kinds[q.kind].add(d, err)
		res.labels[q.label].add(d, err)
		mu.Unlock()
	}
	for n := 0; n < total && ctx.Err() == nil; n++ {
		due := start.Add(time.Duration(n) * interval)
		if wait := time.Until(due); wait > 0 {
			time.Sleep(wait)
		}
		if o.requests > 0 && time.Since(report) >= 10*time.Second {
			report = time.Now()
			fmt.Fprintf(stderr, "  %s requests sent…\n", thousands(float64(n)))
		}
		q := w.next(n, r)
		res.sent++
		if int(busy.Load()) >= o.maxBusy {
			record(q, 0, fmt.Sprintf("%d requests in flight: not sent", o.maxBusy))
			continue
		}
		busy.Add(1)
		inflight.Go(func() {
			defer busy.Add(-1)
			status, got, err := w.send(ctx, q.method, q.uri, q.body)
			d := time.Since(due)
			switch {
			case err != nil:
				record(q, d, err.Error())
			case status < 200 || status > 299:
				record(q, d, fmt.Sprintf("%s %s: status %d: %.200s", q.method, q.uri, status, got))
			default:
				record(q, d, "")
			}
			if q.after != nil {
				q.after(status, got)
			}
		})
	}
	inflight.Wait()
	res.elapsed = time.Since(start)
	for _, k := range soakKinds {
		s := res.kinds[k]
		slices.Sort(s.lat)
		res.all.lat = append(res.all.lat, s.lat...)
		res.all.errs += s.errs
		if res.all.firstErr == "" {
			res.all.firstErr = s.firstErr
		}
	}
	slices.Sort(res.all.lat)
	for _, s := range res.labels {
		slices.Sort(s.lat)
	}
	return res, ctx.Err()
}

// send sends one request of the soak and reads its answer.
func (w *workload) send(ctx context.Context, method, uri string, body []byte) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = strings.NewReader(string(body))
	}
	req, err := http.NewRequestWithContext(ctx, method, uri, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+w.token)
	req.Header.Set("Accept-Encoding", "gzip") // read as sent, as clients that take gzip do
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := w.http.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	if method == "GET" { // only the answers of writes are read
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, nil, err
	}
	got, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, got, err
}

// writeSoak prints a soak's figures as a markdown table.
func writeSoak(w io.Writer, r *soakResult) {
	servers := "one server"
	if r.servers > 1 {
		servers = fmt.Sprintf("%d servers, round robin", r.servers)
	}
	length := r.o.duration.String()
	if r.o.requests > 0 {
		length = thousands(float64(r.o.requests)) + " requests"
	}
	fmt.Fprintf(w, "### Soak: %s, %s\n\n", r.name, servers)
	fmt.Fprintf(w, "Open loop at %s req/s for %s over a space of %s pages: %s requests sent in %.1f s (%s answered a second). Latency from when each request was due.\n\n",
		thousands(r.o.rate), length, thousands(float64(r.o.pages)), thousands(float64(r.sent)), r.elapsed.Seconds(), thousands(float64(r.all.count())/r.elapsed.Seconds()))
	fmt.Fprint(w, "| Requests | Share | Count | Errors | p50 | p99 | Worst |\n|---|---|---|---|---|---|---|\n")
	row := func(name string, s *soakStats) {
		fmt.Fprintf(w, "| %s | %.0f%% | %s | %s | %s | %s | %s |\n", name, 100*float64(s.count())/float64(max(1, r.all.count())),
			thousands(float64(s.count())), errRate(s), ms(s.quantile(0.5)), ms(s.quantile(0.99)), ms(s.quantile(1)))
	}
	row("Reads: pages and lists", r.kinds[kindRead])
	row("Search", r.kinds[kindSearch])
	row("Authoring: change requests, edits, merges", r.kinds[kindAuthor])
	row("**All**", r.all)
	fmt.Fprint(w, "\n| Request | Share | Count | Errors | p50 | p99 | Worst |\n|---|---|---|---|---|---|---|\n")
	for _, l := range soakLabels {
		row(l, r.labels[l])
	}
	fmt.Fprintln(w)
	if r.all.errs > 0 {
		fmt.Fprintf(w, "First error: %s\n\n", r.all.firstErr)
	}
	if len(r.rssAfter) > 0 {
		fmt.Fprint(w, "| Server | Processor, in cores | Resident after seeding | After the soak | Peak | Go heap in use after |\n|---|---|---|---|---|---|\n")
		for i := range r.rssAfter {
			fmt.Fprintf(w, "| %c | %.2f | %d MB | %d MB | %d MB | %d MB |\n", 'A'+i, r.cpu[i].Seconds()/r.elapsed.Seconds(),
				r.rssBefore[i]>>20, r.rssAfter[i]>>20, r.peakAfter[i]>>20, r.heapAfter[i]>>20)
		}
		fmt.Fprintln(w)
	}
}

// errRate is a count of errors and their share.
func errRate(s *soakStats) string {
	if s.errs == 0 {
		return "0"
	}
	return fmt.Sprintf("%s (%.2f%%)", thousands(float64(s.errs)), 100*float64(s.errs)/float64(s.count()))
}
