package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/quiredocs/quire"
)

const orgColumns = "o.id, o.title, o.created_at, o.email_domains, o.hostname, o.default_role, o.sso, o.ai, o.invite_links, o.merge_rules"

type orgRow struct {
	org         quire.Organization
	created     int64
	domains     string
	hostname    sql.NullString
	defaultRole sql.NullString
	mergeRules  string
}

func (r *orgRow) dest() []any {
	o := &r.org
	return []any{&o.ID, &o.Title, &r.created, &r.domains, &r.hostname, &r.defaultRole, &o.SSO, &o.AI, &o.InviteLinks, &r.mergeRules}
}

func (r *orgRow) value() (*quire.Organization, error) {
	o := r.org
	o.CreatedAt = fromMicros(r.created)
	o.Hostname = r.hostname.String
	o.DefaultRole = quire.Role(r.defaultRole.String)
	o.MergeRules = json.RawMessage(r.mergeRules)
	if err := json.Unmarshal([]byte(r.domains), &o.EmailDomains); err != nil {
		return nil, err
	}
	return &o, nil
}

// Organization returns an organization by id.
func (r reader) Organization(ctx context.Context, id string) (*quire.Organization, error) {
	return scanOneChecked[orgRow, *quire.Organization](ctx, r.q, "organization", "SELECT "+orgColumns+" FROM organizations o WHERE o.id = ?", id)
}

// OrganizationByHostname returns the organization whose hostname (its
// subdomain, in GitBook's words) is hostname.
func (r reader) OrganizationByHostname(ctx context.Context, hostname string) (*quire.Organization, error) {
	return scanOneChecked[orgRow, *quire.Organization](ctx, r.q, "organization", "SELECT "+orgColumns+" FROM organizations o WHERE o.hostname = ?", hostname)
}

// ListUserOrganizations lists the organizations a user belongs to, oldest
// membership first.
func (r reader) ListUserOrganizations(ctx context.Context, userID string, p Page) (*List[*quire.Organization], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM members m", "SELECT "+orgColumns+", m.joined_at FROM organizations o JOIN members m ON m.org_id = o.id",
		" WHERE m.user_id = ?", []any{userID}, keysetOrder{key: "m.joined_at", id: "o.id", numeric: true}, p, func(rows *sql.Rows) (*quire.Organization, Cursor, error) {
			var row orgRow
			var joined int64
			if err := rows.Scan(append(row.dest(), &joined)...); err != nil {
				return nil, Cursor{}, err
			}
			o, err := row.value()
			if err != nil {
				return nil, Cursor{}, err
			}
			return o, Cursor{Num: joined, ID: o.ID}, nil
		})
}

// CreateOrganization creates an organization whose first member, ownerID, is
// its admin.
func (db *DB) CreateOrganization(ctx context.Context, title string, emailDomains []string, ownerID string) (org *quire.Organization, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		org, err = tx.createOrganization(ctx, title, emailDomains, ownerID)
		return err
	})
	return org, err
}

func (tx *Tx) createOrganization(ctx context.Context, title string, emailDomains []string, ownerID string) (*quire.Organization, error) {
	if emailDomains == nil {
		emailDomains = []string{}
	}
	domains, _ := json.Marshal(emailDomains)
	o := &quire.Organization{ID: newID(), Title: title, CreatedAt: tx.Now, EmailDomains: emailDomains, AI: true,
		MergeRules: json.RawMessage(`{"type":"none"}`)}
	if _, err := tx.q.exec(ctx, "INSERT INTO organizations (id, title, created_at, email_domains) VALUES (?, ?, ?, ?)",
		o.ID, o.Title, micros(tx.Now), string(domains)); err != nil {
		return nil, err
	}
	if err := tx.AddMember(ctx, o.ID, ownerID, quire.RoleAdmin); err != nil {
		return nil, err
	}
	return o, nil
}

// OrganizationUpdate is a partial update; nil fields stay as they are.
type OrganizationUpdate struct {
	Title        *string
	EmailDomains *[]string
	Hostname     *string // "" removes it
	DefaultRole  *quire.Role
	SSO, AI      *bool
	InviteLinks  *bool
	MergeRules   json.RawMessage
}

// UpdateOrganization applies u and returns the organization as it now is.
func (db *DB) UpdateOrganization(ctx context.Context, id string, u OrganizationUpdate) (*quire.Organization, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		set := map[string]any{}
		if u.Title != nil {
			set["title"] = *u.Title
		}
		if u.EmailDomains != nil {
			b, _ := json.Marshal(*u.EmailDomains)
			set["email_domains"] = string(b)
		}
		if u.Hostname != nil {
			set["hostname"] = sql.NullString{String: *u.Hostname, Valid: *u.Hostname != ""}
		}
		if u.DefaultRole != nil {
			set["default_role"] = sql.NullString{String: string(*u.DefaultRole), Valid: *u.DefaultRole != quire.RoleGuest}
		}
		if u.SSO != nil {
			set["sso"] = *u.SSO
		}
		if u.AI != nil {
			set["ai"] = *u.AI
		}
		if u.InviteLinks != nil {
			set["invite_links"] = *u.InviteLinks
		}
		if u.MergeRules != nil {
			set["merge_rules"] = string(u.MergeRules)
		}
		if err := tx.update(ctx, "organizations", "id", id, set); err != nil {
			if quire.ErrorCode(err) == quire.CodeConflict {
				return quire.Errorf(quire.CodeConflict, "hostname: already used by another organization")
			}
			return err
		}
		return nil
	}, func(tx *Tx) (*quire.Organization, error) { return tx.Organization(ctx, id) })
}

// SoleOrganization returns the organization of a server that has exactly
// one (the usual self-hosted case), nil when it has none or several.
func (r reader) SoleOrganization(ctx context.Context) (*quire.Organization, error) {
	rows, err := r.q.query(ctx, "SELECT id FROM organizations ORDER BY created_at, id LIMIT 2")
	if err != nil {
		return nil, err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(ids) != 1 {
		return nil, err
	}
	return r.Organization(ctx, ids[0])
}
