package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// buildQuire builds cmd/quire into dir.
func buildQuire(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "quire")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/quiredocs/quire/cmd/quire")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build quire: %w", err)
	}
	return bin, nil
}

// quireProc is a `quire serve` process on a fresh store.
type quireProc struct {
	cmd    *exec.Cmd
	exited chan struct{}
	data   string
	log    *logWatch
	url    string
	token  string
}

// startQuire runs `bin serve` on a free port with a fresh data folder and
// dbURL ("" for SQLite), and waits for its first-start token.
func startQuire(ctx context.Context, bin, dbURL string) (*quireProc, error) {
	p, err := startServe(ctx, bin, dbURL)
	if err != nil {
		return nil, err
	}
	token, err := os.ReadFile(filepath.Join(p.data, "initial-token")) // written before it serves
	if err != nil {
		p.stop()
		return nil, err
	}
	p.token = strings.TrimSpace(string(token))
	return p, nil
}

// startServe runs `bin serve` on a free port with a fresh data folder and
// dbURL, and waits until it serves: on a database in use (another server's
// on PostgreSQL) it makes no first-start token.
func startServe(ctx context.Context, bin, dbURL string) (*quireProc, error) {
	data, err := os.MkdirTemp("", "quire-bench-")
	if err != nil {
		return nil, err
	}
	p := &quireProc{data: data, log: &logWatch{}, exited: make(chan struct{})}
	// No per-IP cap: the load comes from one address.
	p.cmd = exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--db", dbURL, "--max-conns-per-ip", "0")
	for _, kv := range os.Environ() { // the flags say it all
		if !strings.HasPrefix(kv, "QUIRE_") {
			p.cmd.Env = append(p.cmd.Env, kv)
		}
	}
	p.cmd.Stderr = p.log // one line per request: kept only until the address shows
	if err := p.cmd.Start(); err != nil {
		os.RemoveAll(data)
		return nil, err
	}
	go func() { p.cmd.Wait(); close(p.exited) }()
	for deadline := time.Now().Add(time.Minute); ; {
		if addr := p.log.addr(); addr != "" {
			p.url = "http://" + addr
			break
		}
		select {
		case <-p.exited:
			os.RemoveAll(data)
			return nil, fmt.Errorf("quire serve exited: %s", p.log.tail())
		case <-ctx.Done():
			p.stop()
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("quire serve did not start in a minute: %s", p.log.tail())
		}
	}
	return p, nil
}

// peakRSS is the process's peak resident memory in bytes, 0 when unknown.
func (p *quireProc) peakRSS() int64 { return p.memory("VmHWM:") }

// rss is the process's resident memory now, in bytes, 0 when unknown.
func (p *quireProc) rss() int64 { return p.memory("VmRSS:") }

// memory reads one of the kB figures of /proc/PID/status, in bytes.
func (p *quireProc) memory(field string) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, field); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cpu is the processor time the process has used so far, 0 when unknown.
func (p *quireProc) cpu() time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/stat")
	if err != nil {
		return 0
	}
	// After the command's name: state, ppid … utime (12th), stime (13th).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// stop asks the server to shut down, kills it after 10 s, and removes its
// data folder.
func (p *quireProc) stop() {
	p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
	}
	os.RemoveAll(p.data)
}

// logWatch takes the server's log: it looks for the line that says where
// it serves, then keeps only the last few KB, for errors.
type logWatch struct {
	mu    sync.Mutex
	buf   []byte
	found string
}

func (l *logWatch) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf = append(l.buf, b...)
	for line := range bytes.Lines(l.buf) {
		var entry struct{ Msg, Addr string }
		if l.found != "" {
			break
		}
		if json.Unmarshal(line, &entry) == nil && entry.Msg == "quire serving" {
			l.found = entry.Addr
		}
	}
	if len(l.buf) > 8<<10 {
		l.buf = append(l.buf[:0], l.buf[len(l.buf)-4<<10:]...)
	}
	return len(b), nil
}

func (l *logWatch) addr() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.found
}

func (l *logWatch) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf)
}

// pgSchema creates a fresh schema in the database at base and answers a
// URL whose search_path is it, and a function that drops it.
func pgSchema(ctx context.Context, base string) (string, func(), error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("--postgres: %w", err)
	}
	db, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	schema := "quire_bench_" + strings.ToLower(rand.Text()[:12])
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		return "", nil, errors.Join(errors.New("--postgres: create schema"), err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), func() {
		if _, err := db.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
			fmt.Fprintf(os.Stderr, "quire-bench: drop schema %s: %v\n", schema, err)
		}
		db.Close()
	}, nil
}
