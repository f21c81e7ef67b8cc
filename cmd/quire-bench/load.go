package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"
)

// stats is what one load run measured.
type stats struct {
	rate          float64 // answers a second
	errs          int     // refused, broken off or not 200 (not those the end of the run cut off)
	p50, p99, max time.Duration
}

// load sends the same GET to base+uri from conns connections, each sending
// its next request as soon as the answer is read (a closed loop, as wrk
// does), for d. Its client is a lean HTTP/1.1 one, so that the client
// costs little next to either server.
func load(ctx context.Context, base, uri, token string, conns int, d time.Duration) (stats, error) {
	u, err := url.Parse(base)
	if err != nil {
		return stats{}, err
	}
	req := []byte("GET " + uri + " HTTP/1.1\r\nHost: " + u.Host + "\r\nAuthorization: Bearer " + token +
		"\r\nAccept-Encoding: gzip\r\nUser-Agent: quire-bench\r\n\r\n")
	run, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	var (
		mu    sync.Mutex
		all   []time.Duration
		errs  int
		wg    sync.WaitGroup
		start = time.Now()
	)
	for range conns {
		wg.Go(func() {
			lat, n := worker(run, u.Host, req)
			mu.Lock()
			all = append(all, lat...)
			errs += n
			mu.Unlock()
		})
	}
	wg.Wait()
	s := stats{rate: float64(len(all)) / time.Since(start).Seconds(), errs: errs}
	if len(all) == 0 {
		return s, fmt.Errorf("GET %s: no answer in %v (%d errors)", uri, d, errs)
	}
	slices.Sort(all)
	s.p50, s.p99, s.max = all[len(all)/2], all[len(all)*99/100], all[len(all)-1]
	return s, ctx.Err()
}

// worker sends req over one connection until ctx is done, dialing again
// when the server closes it, and answers the latency of each 200 answer
// and how many requests failed.
func worker(ctx context.Context, host string, req []byte) (lat []time.Duration, errs int) {
	deadline, _ := ctx.Deadline()
	var conn net.Conn
	var br *bufio.Reader
	for ctx.Err() == nil {
		if conn == nil {
			c, err := (&net.Dialer{}).DialContext(ctx, "tcp", host)
			if err != nil {
				if ctx.Err() == nil {
					errs++
					time.Sleep(10 * time.Millisecond)
				}
				continue
			}
			c.SetDeadline(deadline) // ends a request in flight when the run ends
			conn, br = c, bufio.NewReaderSize(c, 64<<10)
		}
		t := time.Now()
		status, keep, err := roundTrip(conn, br, req)
		if ctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded) {
			break // cut off by the end of the run: not counted
		}
		if err != nil || status != 200 {
			errs++
		} else {
			lat = append(lat, time.Since(t))
		}
		if err != nil || !keep {
			conn.Close()
			conn = nil
		}
	}
	if conn != nil {
		conn.Close()
	}
	return lat, errs
}

var errBadResponse = errors.New("malformed response")

// roundTrip writes req and reads the answer, discarding its body: its
// status and whether the connection may be used again.
func roundTrip(conn net.Conn, br *bufio.Reader, req []byte) (status int, keep bool, err error) {
	if _, err := conn.Write(req); err != nil {
		return 0, false, err
	}
	line, err := br.ReadSlice('\n')
	if err != nil {
		return 0, false, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.1 ")) {
		return 0, false, errBadResponse
	}
	status, _ = strconv.Atoi(string(line[9:12]))
	length, chunked, keep := -1, false, true
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return status, false, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil {
				return status, false, errBadResponse
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")):
			chunked = bytes.EqualFold(value, []byte("chunked"))
		case bytes.EqualFold(name, []byte("Connection")):
			keep = !bytes.EqualFold(value, []byte("close"))
		}
	}
	switch {
	case chunked:
		err = discardChunks(br)
	case length >= 0:
		_, err = br.Discard(length)
	default: // the body runs to the end of the connection
		_, err = io.Copy(io.Discard, br)
		keep = false
	}
	return status, keep && err == nil, err
}

// discardChunks reads a chunked body (RFC 9112 §7.1) and its trailers.
func discardChunks(br *bufio.Reader) error {
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		size, _, _ := bytes.Cut(bytes.TrimRight(line, "\r\n"), []byte(";"))
		n, err := strconv.ParseInt(string(size), 16, 64)
		if err != nil {
			return errBadResponse
		}
		if n == 0 {
			break
		}
		if _, err := br.Discard(int(n) + 2); err != nil { // the chunk and its CRLF
			return err
		}
	}
	for { // trailers, up to the empty line
		line, err := br.ReadSlice('\n')
		if err != nil {
			return err
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			return nil
		}
	}
}
