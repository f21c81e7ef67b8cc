// Package s3test runs a real S3-compatible server (versitygw, built by
// scripts/s3-test-server.sh) for tests: each test gets its own process on a
// free loopback port, over a folder of its own, that it can stop and start.
package s3test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Env names the versitygw binary the tests run.
const Env = "QUIRE_TEST_VERSITYGW"

const (
	access = "quiretest"
	secret = "quiretest-secret"
)

// Server is one versitygw process serving a folder.
type Server struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
	done chan struct{}
}

// Start starts a server for t, and sets the AWS credential variables the
// blob store reads to its keys (so t must not be parallel). It skips t when
// QUIRE_TEST_VERSITYGW is unset, and fails it instead when CI is set.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := os.Getenv(Env)
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is unset: build versitygw with scripts/s3-test-server.sh", Env)
		}
		t.Skipf("%s unset: run scripts/s3-test-server.sh and set it to the path it prints", Env)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", access)
	t.Setenv("AWS_SECRET_ACCESS_KEY", secret)
	t.Setenv("AWS_SESSION_TOKEN", "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{t: t, bin: bin, dir: t.TempDir(), port: port}
	if err := os.MkdirAll(filepath.Join(s.dir, "data"), 0o700); err != nil {
		t.Fatal(err)
	}
	s.Restart()
	t.Cleanup(s.Stop)
	return s
}

// URL is the --blobs setting of a bucket on the server under prefix ("" for
// none); the store makes the bucket.
func (s *Server) URL(bucket, prefix string) string {
	return fmt.Sprintf("s3://%s/%s?endpoint=%s&insecure=true&region=us-east-1", bucket, prefix, s.Addr())
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// Stop ends the process and waits for it; stopping a stopped server does
// nothing.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.done
	s.cmd = nil
}

// Restart starts the process (stopping it first if it runs) on the same
// port and folder, and waits until it accepts connections.
func (s *Server) Restart() {
	s.t.Helper()
	s.Stop()
	log, err := os.OpenFile(filepath.Join(s.dir, "versitygw.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		s.t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(s.bin, "--access", access, "--secret", secret, "--port", s.Addr(),
		"posix", filepath.Join(s.dir, "data"))
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start %s: %v", s.bin, err)
	}
	s.cmd, s.done = cmd, make(chan struct{})
	go func() { cmd.Wait(); close(s.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", s.Addr(), time.Second)
		if err == nil {
			c.Close()
			return
		}
		select {
		case <-s.done:
			out, _ := os.ReadFile(filepath.Join(s.dir, "versitygw.log"))
			s.t.Fatalf("versitygw exited at start: %s", out)
		default:
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("versitygw does not answer on %s", s.Addr())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
