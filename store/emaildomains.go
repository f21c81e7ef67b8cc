package store

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/quiredocs/quire"
)

// OrganizationsForEmailDomain lists the organizations whose e-mail domains
// (who may join them by their address) include domain, oldest first.
func (r reader) OrganizationsForEmailDomain(ctx context.Context, domain string) ([]*quire.Organization, error) {
	// The domains are a JSON array in a text column: LIKE finds the
	// candidates, and the decoded list decides (a domain is JSON-quoted
	// as it is: CheckEmailDomains allows no quote or backslash).
	quoted, _ := json.Marshal(domain)
	like := "%" + strings.NewReplacer("%", `\%`, "_", `\_`, `\`, `\\`).Replace(string(quoted)) + "%"
	rows, err := r.q.query(ctx, "SELECT "+orgColumns+" FROM organizations o WHERE o.email_domains LIKE ? ESCAPE '\\' ORDER BY o.created_at, o.id LIMIT 100", like)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*quire.Organization
	for rows.Next() {
		var row orgRow
		if err := rows.Scan(row.dest()...); err != nil {
			return nil, err
		}
		o, err := row.value()
		if err != nil {
			return nil, err
		}
		if slices.Contains(o.EmailDomains, domain) {
			out = append(out, o)
		}
	}
	return out, rows.Err()
}

// EmailDomain is the domain of an e-mail address, lower case; "" when it
// has none.
func EmailDomain(email string) string {
	i := strings.LastIndexByte(email, '@')
	if i < 0 {
		return ""
	}
	return quire.NormalizeEmail(email[i+1:])
}

// JoinByEmailDomain makes user a member of orgID with its default role,
// when the domain of user's address is among the organization's e-mail
// domains; a member keeps their role. An organization that does not take
// the user's domain is not found, as for anyone who may not see it.
func (db *DB) JoinByEmailDomain(ctx context.Context, orgID string, user *quire.User) error {
	return db.Tx(ctx, func(tx *Tx) error {
		org, err := tx.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		domain := EmailDomain(user.Email)
		if domain == "" || !slices.Contains(org.EmailDomains, domain) {
			if _, err := tx.Membership(ctx, orgID, user.ID); err == nil {
				return nil // a member already, whatever their address
			}
			return quire.Errorf(quire.CodeNotFound, "organization not found")
		}
		return tx.joinOrg(ctx, orgID, user.ID, org.DefaultRole)
	})
}
