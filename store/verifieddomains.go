package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/quiredocs/quire"
)

// Ownership proved by DNS (dnscheck): an organization proves an e-mail
// domain, and a site its custom hostname, with a TXT record holding a token
// the server gives it for that name.

// VerificationToken is the token of the TXT record by which orgID proves
// it owns name (an e-mail domain or a hostname): unguessable, one per
// organization and name, and the same on every server of the database, as
// it is an HMAC of the two under a server secret.
func (db *DB) VerificationToken(ctx context.Context, orgID, name string) (string, error) {
	key, err := db.ServerSecret(ctx, "dns-verification", func() ([]byte, error) {
		b := make([]byte, 32)
		_, err := rand.Read(b)
		return b, err
	})
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(orgID + "\x00" + name))
	return hex.EncodeToString(mac.Sum(nil)[:16]), nil
}

// How an organization proved an e-mail domain.
const (
	VerifiedByDNS      = "dns"
	VerifiedByOperator = "operator" // quire admin verify-domain
)

// VerifiedDomain is an e-mail domain an organization proved it owns.
type VerifiedDomain struct {
	Domain, Method string
	VerifiedAt     time.Time
}

// VerifiedEmailDomains lists the e-mail domains orgID proved, by name.
func (r reader) VerifiedEmailDomains(ctx context.Context, orgID string) ([]VerifiedDomain, error) {
	rows, err := r.q.query(ctx, "SELECT domain, method, verified_at FROM verified_email_domains WHERE org_id = ? ORDER BY domain", orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []VerifiedDomain
	for rows.Next() {
		var d VerifiedDomain
		var at int64
		if err := rows.Scan(&d.Domain, &d.Method, &at); err != nil {
			return nil, err
		}
		d.VerifiedAt = fromMicros(at)
		out = append(out, d)
	}
	return out, rows.Err()
}

// hasVerifiedEmailDomain reports whether orgID proved domain.
func (r reader) hasVerifiedEmailDomain(ctx context.Context, orgID, domain string) (bool, error) {
	var n int
	err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM verified_email_domains WHERE org_id = ? AND domain = ?", orgID, domain).Scan(&n)
	return n > 0, err
}

// VerifyEmailDomain records that orgID proved domain, by method.
func (db *DB) VerifyEmailDomain(ctx context.Context, orgID, domain, method string) error {
	if err := quire.CheckEmailDomain("domain", domain); err != nil {
		return err
	}
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Organization(ctx, orgID); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, `INSERT INTO verified_email_domains (org_id, domain, method, verified_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (org_id, domain) DO UPDATE SET method = excluded.method, verified_at = excluded.verified_at`,
			orgID, domain, method, micros(tx.Now))
		return err
	})
}

// RemoveVerifiedEmailDomain forgets that orgID proved domain: its identity
// provider no longer signs in addresses there, and the accounts there it
// managed are managed no more.
func (db *DB) RemoveVerifiedEmailDomain(ctx context.Context, orgID, domain string) (removed bool, err error) {
	return db.deleteSome(ctx, "DELETE FROM verified_email_domains WHERE org_id = ? AND domain = ?", orgID, domain)
}

// managedByVerified is users.managed_by where the managing organization
// proved the domain of the account's address, NULL elsewhere: a mark set
// by an identity provider for an address its organization does not own
// (before ownership was checked, or since the domain was removed) locks
// nobody out. Addresses are lower case, domains have no LIKE wildcard.
const managedByVerified = `(CASE WHEN EXISTS (SELECT 1 FROM verified_email_domains vd
	WHERE vd.org_id = u.managed_by AND u.email LIKE '%@' || vd.domain) THEN u.managed_by END)`
