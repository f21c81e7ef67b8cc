package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"strconv"

	"github.com/quiredocs/quire/internal/connlimit"
)

// defaultConnsPerIP is how many connections one client address may hold
// open at once: plenty for browsers (six per host) and scripts, too few
// to take all of a server's. Behind a reverse proxy every client shares
// the proxy's address: raise it there, or set 0.
const defaultConnsPerIP = 64

// connCap is --max-conns-per-ip, defaulting to QUIRE_MAX_CONNS_PER_IP.
type connCap struct {
	n   int
	err error // a bad QUIRE_MAX_CONNS_PER_IP, unless a flag overrides it
}

func connCapFlag(fs *flag.FlagSet) *connCap {
	c := &connCap{n: defaultConnsPerIP}
	if v := os.Getenv("QUIRE_MAX_CONNS_PER_IP"); v != "" {
		if err := c.Set(v); err != nil {
			c.err = fmt.Errorf("QUIRE_MAX_CONNS_PER_IP: %w", err)
		}
	}
	fs.Var(c, "max-conns-per-ip", "connections one client address may hold open at once; 0 for no cap (env QUIRE_MAX_CONNS_PER_IP)")
	return c
}

func (c *connCap) String() string { return strconv.Itoa(c.n) }

func (c *connCap) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return errors.New("must be a whole number, 0 for no cap")
	}
	c.n, c.err = n, nil
	return nil
}

// listen listens on addr, refusing connections over the cap.
func (c *connCap) listen(network, addr string) (net.Listener, error) {
	if c.err != nil {
		return nil, c.err
	}
	ln, err := net.Listen(network, addr)
	if err != nil || c.n == 0 {
		return ln, err
	}
	return connlimit.New(ln, c.n), nil
}
