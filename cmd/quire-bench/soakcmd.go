package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// runSoak is `quire-bench soak`: the mixed workload, open loop, against one
// server on SQLite and, with --postgres, several on one PostgreSQL schema.
//
//	quire-bench soak --rate 2000 --duration 2m [--postgres URL --servers 3]
//	quire-bench soak --rate 2000 --requests 1000000
func runSoak(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("quire-bench soak", flag.ContinueOnError)
	fs.SetOutput(stderr)
	o := soakOptions{}
	fs.Float64Var(&o.rate, "rate", 2000, "requests a second, sent on schedule whatever the answers take")
	fs.DurationVar(&o.duration, "duration", 2*time.Minute, "how long to send")
	fs.IntVar(&o.requests, "requests", 0, "send this many requests instead (at --rate), e.g. 1000000, and report memory after them")
	fs.IntVar(&o.pages, "pages", 1000, "pages of the space seeded and read")
	fs.IntVar(&o.maxBusy, "max-in-flight", 4096, "requests in flight at most; one due beyond is an error")
	pg := fs.String("postgres", "", "also soak servers on PostgreSQL: a database URL, in which a schema is made and dropped")
	servers := fs.Int("servers", 3, "servers on PostgreSQL (one on SQLite), sent requests round robin")
	sqlite := fs.Bool("sqlite", true, "soak one server on SQLite")
	bin := fs.String("quire", "", "the quire binary; default: go build ./cmd/quire")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if o.rate <= 0 || o.duration <= 0 || o.requests < 0 || o.pages < 1 || o.maxBusy < 1 || *servers < 1 {
		return fmt.Errorf("%w: --rate, --duration, --pages, --max-in-flight and --servers must be positive", errUsage)
	}
	if *bin == "" {
		dir, err := os.MkdirTemp("", "quire-bench-bin-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		fmt.Fprintln(stderr, "building quire…")
		if *bin, err = buildQuire(ctx, dir); err != nil {
			return err
		}
	}
	if *sqlite {
		if err := soakServers(ctx, *bin, "SQLite", "", 1, o, stdout, stderr); err != nil {
			return err
		}
	}
	if *pg != "" {
		return soakServers(ctx, *bin, "PostgreSQL", *pg, *servers, o, stdout, stderr)
	}
	return nil
}

// soakServers starts n servers on a fresh store (SQLite when pgURL is "",
// else a new schema of pgURL dropped afterwards), soaks them and prints
// the figures with each server's memory.
func soakServers(ctx context.Context, bin, dbName, pgURL string, n int, o soakOptions, stdout, stderr io.Writer) error {
	dbURL := ""
	if pgURL != "" {
		u, drop, err := pgSchema(ctx, pgURL)
		if err != nil {
			return err
		}
		defer drop()
		dbURL = u
	}
	first, err := startQuire(ctx, bin, dbURL)
	if err != nil {
		return err
	}
	procs := []*quireProc{first}
	defer func() {
		for _, p := range procs {
			p.stop()
		}
	}()
	for range n - 1 {
		p, err := startServe(ctx, bin, dbURL)
		if err != nil {
			return err
		}
		procs = append(procs, p)
	}
	var bases []string
	for _, p := range procs {
		bases = append(bases, p.url)
	}
	fmt.Fprintf(stderr, "%s, %d server(s): seeding %d pages, then soaking…\n", dbName, n, o.pages)
	c := &client{base: first.url, token: first.token, http: &http.Client{Timeout: 10 * time.Minute}}
	var before []int64
	var cpuBefore []time.Duration
	r, err := soak(ctx, c, bases, o, stderr, func() {
		for _, p := range procs {
			before = append(before, p.rss())
			cpuBefore = append(cpuBefore, p.cpu())
		}
	})
	if err != nil {
		return fmt.Errorf("%s: %w\nserver log: %s", dbName, err, first.log.tail())
	}
	r.name, r.rssBefore = dbName, before
	for i, p := range procs {
		r.cpu = append(r.cpu, p.cpu()-cpuBefore[i])
		r.rssAfter = append(r.rssAfter, p.rss())
		r.peakAfter = append(r.peakAfter, p.peakRSS())
		r.heapAfter = append(r.heapAfter, heapInUse(ctx, p.url))
	}
	writeSoak(stdout, r)
	return nil
}

// heapInUse is the Go heap a server has in use, from its /metrics; 0 when
// unknown. Beside the resident memory, it tells live data from memory the
// runtime has not yet given back.
func heapInUse(ctx context.Context, base string) int64 {
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/metrics", nil)
	if err != nil {
		return 0
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_memstats_heap_inuse_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return int64(f)
		}
	}
	return 0
}
