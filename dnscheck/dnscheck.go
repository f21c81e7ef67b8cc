// Package dnscheck proves that whoever asks for a domain or hostname
// controls its DNS: a TXT record quire-verification=<token> at
// _quire.<name>, the token being one the server gave that organization for
// that name. Organizations prove e-mail domains so (their identity
// provider may then sign in addresses there) and custom hostnames (the
// published sites serve a hostname only once it is proved).
package dnscheck

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"
)

// Timeout bounds one check, all its lookups together.
const Timeout = 5 * time.Second

// RecordPrefix starts the value of a verification TXT record.
const RecordPrefix = "quire-verification="

// Checker looks verification records up, through the DNS server the
// operator set (QUIRE_DNS_SERVER) or the system's resolver.
type Checker struct {
	resolver *net.Resolver
	server   string
}

// New returns a Checker that asks server (host:port), or the system
// resolver when server is "".
func New(server string) *Checker {
	if server == "" {
		return &Checker{resolver: net.DefaultResolver}
	}
	var d net.Dialer
	return &Checker{server: server, resolver: &net.Resolver{
		PreferGo: true, // the Go resolver is the one that honours Dial
		Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
			return d.DialContext(ctx, network, server)
		},
	}}
}

// RecordName is where the TXT record for name lives.
func RecordName(name string) string { return "_quire." + name }

// RecordValue is the TXT record's value for token.
func RecordValue(token string) string { return RecordPrefix + token }

// Instructions tell a person which record to add.
func Instructions(name, token string) string {
	return fmt.Sprintf("add a DNS record %s. TXT %q", RecordName(name), RecordValue(token))
}

// Result is the outcome of a check: Verified, or why not, for people.
type Result struct {
	Verified bool
	Detail   string
	Wrong    bool // a verification record is there, with another token
}

// Verify looks for the TXT record that proves token for name. It fails
// only when the lookup could not be answered (a timeout, a server
// failure); a name without the record is an unverified Result.
func (c *Checker) Verify(ctx context.Context, name, token string) (Result, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	// The trailing dot keeps the resolver's search domains out of it.
	txts, err := c.resolver.LookupTXT(ctx, RecordName(name)+".")
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		txts, err = nil, nil
	}
	if dnsErr != nil && err != nil {
		// Its text names the resolver's address, which is not for clients.
		reason := "the DNS server did not answer"
		if dnsErr.IsTimeout {
			reason = "timed out"
		}
		return Result{}, fmt.Errorf("looking up %s TXT: %s", RecordName(name), reason)
	}
	if err != nil {
		return Result{}, fmt.Errorf("looking up %s TXT: %w", RecordName(name), err)
	}
	if slices.Contains(txts, RecordValue(token)) {
		return Result{Verified: true, Detail: fmt.Sprintf("%s. has the TXT record %q", RecordName(name), RecordValue(token))}, nil
	}
	if slices.ContainsFunc(txts, func(v string) bool { return strings.HasPrefix(v, RecordPrefix) }) {
		return Result{Wrong: true, Detail: fmt.Sprintf("%s. has a verification record with another token: %s", RecordName(name), Instructions(name, token))}, nil
	}
	return Result{Detail: fmt.Sprintf("%s. has no verification record: %s", RecordName(name), Instructions(name, token))}, nil
}
