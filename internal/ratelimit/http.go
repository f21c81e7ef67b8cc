package ratelimit

import (
	"net"
	"net/http"
	"strconv"
	"time"
)

// SetHeaders writes d's X-RateLimit headers into h (Reset in Unix seconds,
// as GitBook's API documents them) and, when d refuses, Retry-After; it
// reports whether d allows the request.
func (d Decision) SetHeaders(h http.Header, now time.Time) bool {
	// Canonical keys, set directly: this runs on every limited request.
	h["X-Ratelimit-Limit"] = []string{strconv.Itoa(d.Limit)}
	h["X-Ratelimit-Remaining"] = []string{strconv.Itoa(d.Remaining)}
	h["X-Ratelimit-Reset"] = []string{strconv.FormatInt(d.Reset.Unix(), 10)}
	if !d.Allowed {
		h["Retry-After"] = []string{strconv.Itoa(d.RetryAfter(now))}
	}
	return d.Allowed
}

// ClientKey is the key of r's client address as the connection gives it
// (a proxy's X-Forwarded-For is not trusted): "ip:" and the IPv4 address,
// or the /64 of an IPv6 one, which one host usually has whole.
func ClientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	if ip := net.ParseIP(host); ip != nil && ip.To4() == nil {
		return "ip:" + ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return "ip:" + host
}
