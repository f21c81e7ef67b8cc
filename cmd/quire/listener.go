package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/internal/connlimit"
)

// defaultConnsPerIP is how many connections one client address may hold
// open at once: plenty for browsers (six per host) and scripts, too few
// to take all of a server's. Behind a reverse proxy every client shares
// the proxy's address: raise it there, or set 0.
const defaultConnsPerIP = 64

// defaultMaxInFlight is how many requests a server works on at once; more
// wait up to inFlightWait for room, then are answered 503 (api.LimitInFlight).
// Two cores serve a few thousand requests a second with far fewer.
const defaultMaxInFlight = 256

const inFlightWait = 2 * time.Second

// limits are --max-conns-per-ip and --max-in-flight.
type limits struct{ connsPerIP, inFlight count }

func limitFlags(fs *flag.FlagSet) *limits {
	l := &limits{count{n: defaultConnsPerIP}, count{n: defaultMaxInFlight}}
	l.connsPerIP.flag(fs, "max-conns-per-ip", "QUIRE_MAX_CONNS_PER_IP", "connections one client address may hold open at once; 0 for no cap")
	l.inFlight.flag(fs, "max-in-flight", "QUIRE_MAX_IN_FLIGHT",
		"requests worked on at once; more wait up to "+inFlightWait.String()+" for room, then are answered 503; 0 for no limit")
	return l
}

// count is a whole-number flag that defaults to its environment variable.
type count struct {
	n   int
	err error // a bad environment variable, unless the flag overrides it
}

func (c *count) flag(fs *flag.FlagSet, name, env, usage string) {
	if v := os.Getenv(env); v != "" {
		if err := c.Set(v); err != nil {
			c.err = fmt.Errorf("%s: %w", env, err)
		}
	}
	fs.Var(c, name, usage+" (env "+env+")")
}

func (c *count) String() string { return strconv.Itoa(c.n) }

func (c *count) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return errors.New("must be a whole number, 0 for none")
	}
	c.n, c.err = n, nil
	return nil
}

// listen listens on addr, refusing connections over the cap per address.
func (l *limits) listen(network, addr string) (net.Listener, error) {
	if err := errors.Join(l.connsPerIP.err, l.inFlight.err); err != nil {
		return nil, err
	}
	ln, err := net.Listen(network, addr)
	if err != nil || l.connsPerIP.n == 0 {
		return ln, err
	}
	return connlimit.New(ln, l.connsPerIP.n), nil
}

// handler bounds the requests h works on at once.
func (l *limits) handler(h http.Handler) http.Handler {
	return api.LimitInFlight(h, l.inFlight.n, inFlightWait)
}
