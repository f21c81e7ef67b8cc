// Command quire-bench measures Quire against the ceiling: it starts
// `quire serve` on a fresh store, seeds a space of pages through the API,
// and loads each kind of read, closed loop, against Quire and against a
// bare net/http handler serving the very same bytes from memory, in
// alternating rounds. It prints markdown tables on stdout.
//
//	go run ./cmd/quire-bench --pages 100,1000,10000 --postgres URL
//
// `quire-bench soak` sends a mixed workload open loop instead (soakcmd.go).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "quire-bench:", err)
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "quire-bench:", err)
		os.Exit(1)
	}
}

// errUsage means the command line was wrong.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "soak" {
		return runSoak(ctx, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("quire-bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pagesFlag := fs.String("pages", "1000", "sizes of the space, comma-separated: each is measured on a fresh server")
	pg := fs.String("postgres", "", "also measure on PostgreSQL: a database URL, in which a schema is made and dropped")
	sqlite := fs.Bool("sqlite", true, "measure on SQLite")
	bin := fs.String("quire", "", "the quire binary; default: go build ./cmd/quire")
	o := options{}
	fs.IntVar(&o.conns, "conns", 32, "connections of the closed loop")
	fs.DurationVar(&o.duration, "duration", 5*time.Second, "length of each round")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds, alternating Quire and the bare handler; medians are printed")
	fs.StringVar(&o.query, "query", "replication", "the word searched under load (in about one page of ten)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var sizes []int
	for f := range strings.SplitSeq(*pagesFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("%w: --pages: %q is not a number of pages", errUsage, f)
		}
		sizes = append(sizes, n)
	}
	if o.conns < 1 || o.rounds < 1 || o.duration <= 0 {
		return fmt.Errorf("%w: --conns, --rounds and --duration must be positive", errUsage)
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
	b, err := startBare()
	if err != nil {
		return err
	}
	defer b.close()

	type database struct{ name, url string }
	var dbs []database
	if *sqlite {
		dbs = append(dbs, database{"SQLite", ""})
	}
	if *pg != "" {
		dbs = append(dbs, database{"PostgreSQL", *pg})
	}
	for _, db := range dbs {
		o.readGoal = 0.5
		if db.url != "" {
			o.readGoal = 0.3
		}
		var results []*result
		for _, n := range sizes {
			r, err := measureServer(ctx, *bin, db.name, db.url, n, b, o, stderr)
			if err != nil {
				return fmt.Errorf("%s, %d pages: %w", db.name, n, err)
			}
			writeResult(stdout, r, o)
			results = append(results, r)
		}
		writeScale(stdout, results)
	}
	return nil
}

// measureServer measures a space of n pages on a fresh `quire serve`: in a
// temporary folder on SQLite, in a new schema dropped afterwards on
// PostgreSQL (pgURL).
func measureServer(ctx context.Context, bin, dbName, pgURL string, n int, b *bare, o options, stderr io.Writer) (*result, error) {
	dbURL := ""
	if pgURL != "" {
		u, drop, err := pgSchema(ctx, pgURL)
		if err != nil {
			return nil, err
		}
		defer drop()
		dbURL = u
	}
	p, err := startQuire(ctx, bin, dbURL)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	fmt.Fprintf(stderr, "%s, %d pages: seeding and measuring on %s…\n", dbName, n, p.url)
	c := &client{base: p.url, token: p.token, http: &http.Client{Timeout: 10 * time.Minute}}
	o.serverCPU = p.cpu
	r, err := measure(ctx, c, b, dbName, n, o)
	if err != nil {
		return nil, fmt.Errorf("%w\nserver log: %s", err, p.log.tail())
	}
	r.peakRSS = p.peakRSS()
	return r, nil
}
