// Package connlimit caps the connections a listener holds open from one
// client address, so that one client cannot take all of a server's
// connections.
package connlimit

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// refusal is what a refused client is told, as well as it can be before its
// request is read, before its connection closes.
var refusal = func() []byte {
	body := `{"error":{"code":429,"message":"too many connections from your address"}}` + "\n"
	return fmt.Appendf(nil, "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n"+
		"Connection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}()

// Listener accepts at most PerIP connections open at once from one IP
// address; it answers further ones with a 429 and closes them.
type Listener struct {
	net.Listener
	perIP int

	mu   sync.Mutex
	open map[string]int // open connections by IP
}

// New wraps ln; perIP must be positive.
func New(ln net.Listener, perIP int) *Listener {
	return &Listener{Listener: ln, perIP: perIP, open: map[string]int{}}
}

// Accept implements net.Listener: it returns the next connection within
// the cap, refusing those over it.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := hostOf(c.RemoteAddr())
		l.mu.Lock()
		ok := l.open[ip] < l.perIP
		if ok {
			l.open[ip]++
		}
		l.mu.Unlock()
		if ok {
			return &conn{Conn: c, release: func() { l.release(ip) }}, nil
		}
		c.SetWriteDeadline(time.Now().Add(time.Second)) // a fresh socket's buffer takes it at once
		c.Write(refusal)
		c.Close()
	}
}

// Open reports how many connections from ip are open.
func (l *Listener) Open(ip string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[ip]
}

func (l *Listener) release(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[ip]--; l.open[ip] <= 0 {
		delete(l.open, ip)
	}
}

func hostOf(a net.Addr) string {
	if t, ok := a.(*net.TCPAddr); ok {
		return t.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// conn gives its place back once, on its first Close.
type conn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
