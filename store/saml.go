package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

const samlProviderSelect = `SELECT p.id, p.org_id, p.label, p.entity_id, p.sso_url, p.certificate, p.default_team, p.default_role, p.created_at
	FROM saml_providers p`

type samlProviderRow struct {
	p          quire.SAMLProvider
	team, role sql.NullString
	created    int64
}

func (row *samlProviderRow) dest() []any {
	p := &row.p
	return []any{&p.ID, &p.OrgID, &p.Label, &p.EntityID, &p.SSOURL, &p.Certificate, &row.team, &row.role, &row.created}
}

// value returns the provider and the id of its default team ("" for none),
// which fillSAMLTeams loads once the rows are closed: PostgreSQL runs one
// query at a time on a transaction's connection.
func (row *samlProviderRow) value() (*quire.SAMLProvider, string) {
	p := row.p
	p.DefaultRole, p.CreatedAt = quire.Role(row.role.String), fromMicros(row.created)
	return &p, row.team.String
}

func (r reader) fillSAMLTeams(ctx context.Context, providers []*quire.SAMLProvider, teamIDs []string) error {
	for i, p := range providers {
		if teamIDs[i] == "" {
			continue
		}
		t, err := r.Team(ctx, p.OrgID, teamIDs[i])
		if err != nil {
			return err
		}
		p.DefaultTeam = t
	}
	return nil
}

// SAMLProvider returns a SAML provider of an organization.
func (r reader) SAMLProvider(ctx context.Context, orgID, id string) (*quire.SAMLProvider, error) {
	var row samlProviderRow
	err := r.q.queryRow(ctx, samlProviderSelect+" WHERE p.org_id = ? AND p.id = ?", orgID, id).Scan(row.dest()...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "SAML provider not found")
	}
	if err != nil {
		return nil, err
	}
	p, team := row.value()
	return p, r.fillSAMLTeams(ctx, []*quire.SAMLProvider{p}, []string{team})
}

// ListSAMLProviders lists an organization's SAML providers, oldest first.
func (r reader) ListSAMLProviders(ctx context.Context, orgID string, p Page) (*List[*quire.SAMLProvider], error) {
	list := &List[*quire.SAMLProvider]{}
	if err := r.q.queryRow(ctx, "SELECT COUNT(*) FROM saml_providers WHERE org_id = ?", orgID).Scan(&list.Count); err != nil {
		return nil, err
	}
	after, afterArgs, order := keyset("p.created_at", "p.id", false, p.After, true)
	rows, err := r.q.query(ctx, samlProviderSelect+" WHERE p.org_id = ?"+after+order+" LIMIT ?",
		append(append([]any{orgID}, afterArgs...), p.Limit+1)...)
	if err != nil {
		return nil, err
	}
	var teams []string
	list.Items, list.Next, err = collectPage(rows, p.Limit, func(rows *sql.Rows) (*quire.SAMLProvider, Cursor, error) {
		var row samlProviderRow
		if err := rows.Scan(row.dest()...); err != nil {
			return nil, Cursor{}, err
		}
		p, team := row.value()
		teams = append(teams, team)
		return p, Cursor{Num: row.created, ID: p.ID}, nil
	})
	if err != nil {
		return nil, err
	}
	return list, r.fillSAMLTeams(ctx, list.Items, teams)
}

// SSOLogins returns every SAML provider of an organization, oldest first, for
// its sign-in page.
func (r reader) SSOLogins(ctx context.Context, orgID string) ([]*quire.SAMLProvider, error) {
	list, err := r.ListSAMLProviders(ctx, orgID, Page{Limit: maxSSOLogins})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// maxSSOLogins bounds the unpaged list of sign-in choices.
const maxSSOLogins = 1000

// SAMLProviderUpdate changes some fields of a SAML provider; nil leaves one as
// it is.
type SAMLProviderUpdate struct {
	Label, EntityID, SSOURL, Certificate *string
	DefaultTeam                          *string // "" for none
	DefaultRole                          *quire.Role
}

// Provider is the SAML provider u describes, for CreateSAMLProvider: the
// fields it gives, the others left zero.
func (u SAMLProviderUpdate) Provider() quire.SAMLProvider {
	var p quire.SAMLProvider
	for _, f := range []struct{ dst, src *string }{{&p.Label, u.Label}, {&p.EntityID, u.EntityID}, {&p.Certificate, u.Certificate}, {&p.SSOURL, u.SSOURL}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	if u.DefaultTeam != nil && *u.DefaultTeam != "" {
		p.DefaultTeam = &quire.Team{ID: *u.DefaultTeam}
	}
	if u.DefaultRole != nil {
		p.DefaultRole = *u.DefaultRole
	}
	return p
}

// CreateSAMLProvider creates a SAML provider from p's fields (DefaultTeam
// needs only its ID). The default team must be one of the organization's.
func (db *DB) CreateSAMLProvider(ctx context.Context, orgID string, p quire.SAMLProvider) (out *quire.SAMLProvider, err error) {
	team := ""
	if p.DefaultTeam != nil {
		team = p.DefaultTeam.ID
	}
	err = db.Tx(ctx, func(tx *Tx) error {
		id := newID()
		if _, err := tx.q.exec(ctx, `INSERT INTO saml_providers (id, org_id, label, entity_id, sso_url, certificate, default_role, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id, orgID, p.Label, p.EntityID, p.SSOURL, p.Certificate, nullRole(p.DefaultRole), micros(tx.Now)); err != nil {
			return err
		}
		if err := tx.setSAMLDefaultTeam(ctx, orgID, id, team); err != nil {
			return err
		}
		out, err = tx.SAMLProvider(ctx, orgID, id)
		return err
	})
	return out, err
}

// setSAMLDefaultTeam sets a provider's default team, "" for none.
func (tx *Tx) setSAMLDefaultTeam(ctx context.Context, orgID, id, teamID string) error {
	team := sql.NullString{String: teamID, Valid: teamID != ""}
	if team.Valid {
		if _, err := tx.Team(ctx, orgID, teamID); err != nil {
			if quire.ErrorCode(err) == quire.CodeNotFound {
				return quire.Errorf(quire.CodeInvalid, "defaultTeam: not a team of the organization")
			}
			return err
		}
	}
	_, err := tx.q.exec(ctx, "UPDATE saml_providers SET default_team = ? WHERE org_id = ? AND id = ?", team, orgID, id)
	return err
}

// UpdateSAMLProvider applies u to a SAML provider.
func (db *DB) UpdateSAMLProvider(ctx context.Context, orgID, id string, u SAMLProviderUpdate) (*quire.SAMLProvider, error) {
	return writeThenRead(ctx, db, func(tx *Tx) error {
		if _, err := tx.SAMLProvider(ctx, orgID, id); err != nil {
			return err
		}
		for _, f := range []struct {
			col string
			v   *string
		}{{"label", u.Label}, {"entity_id", u.EntityID}, {"sso_url", u.SSOURL}, {"certificate", u.Certificate}} {
			if f.v == nil {
				continue
			}
			if _, err := tx.q.exec(ctx, "UPDATE saml_providers SET "+f.col+" = ? WHERE org_id = ? AND id = ?", *f.v, orgID, id); err != nil {
				return err
			}
		}
		if u.DefaultRole != nil {
			if _, err := tx.q.exec(ctx, "UPDATE saml_providers SET default_role = ? WHERE org_id = ? AND id = ?", nullRole(*u.DefaultRole), orgID, id); err != nil {
				return err
			}
		}
		if u.DefaultTeam != nil {
			if err := tx.setSAMLDefaultTeam(ctx, orgID, id, *u.DefaultTeam); err != nil {
				return err
			}
		}
		return nil
	}, func(tx *Tx) (*quire.SAMLProvider, error) { return tx.SAMLProvider(ctx, orgID, id) })
}

// DeleteSAMLProvider deletes a SAML provider with its pending requests and
// used assertions. Members who signed in with it stay members.
func (db *DB) DeleteSAMLProvider(ctx context.Context, orgID, id string) error {
	return db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.SAMLProvider(ctx, orgID, id); err != nil {
			return err
		}
		for _, q := range []string{"DELETE FROM saml_requests WHERE provider_id = ?", "DELETE FROM saml_assertions WHERE provider_id = ?", "DELETE FROM saml_providers WHERE id = ?"} {
			if _, err := tx.q.exec(ctx, q, id); err != nil {
				return err
			}
		}
		return nil
	})
}

// ServerSecret returns the named secret the servers sharing the database
// keep, made by generate on first use. generate may run on several servers
// at once; the first secret stored wins and all of them return it.
func (db *DB) ServerSecret(ctx context.Context, name string, generate func() ([]byte, error)) ([]byte, error) {
	var secret string
	err := db.q.queryRow(ctx, "SELECT secret FROM server_keys WHERE name = ?", name).Scan(&secret)
	if errors.Is(err, sql.ErrNoRows) {
		b, gerr := generate()
		if gerr != nil {
			return nil, gerr
		}
		err = db.Tx(ctx, func(tx *Tx) error {
			if _, err := tx.q.exec(ctx, "INSERT INTO server_keys (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
				name, hex.EncodeToString(b), micros(tx.Now)); err != nil {
				return err
			}
			return tx.q.queryRow(ctx, "SELECT secret FROM server_keys WHERE name = ?", name).Scan(&secret)
		})
	}
	if err != nil {
		return nil, err
	}
	return hex.DecodeString(secret)
}

// SAMLSignIn is a verified SAML assertion, ready to sign its subject in.
type SAMLSignIn struct {
	OrgID, ProviderID string
	RequestID         string    // the AuthnRequest it answers, started in this browser
	RequestExpires    time.Time // after which that request is refused anyway
	AssertionID       string    // unique per assertion of the provider
	Expires           time.Time // after which the assertion is refused anyway
	Email             string
	DisplayName       string
	NoToken           bool // issue no API token: the sign-in ends in an app session
}

// SAMLSession is the outcome of a SAML sign-in.
type SAMLSession struct {
	Member *quire.Member
	Token  string // a new API token, shown once; "" when NoToken was asked
	Joined bool   // the user became a member by this sign-in
}

var errAssertionUsed = quire.Errorf(quire.CodeUnauthorized, "SAML response refused: its assertion was already used")

// SignInWithSAML signs in the subject of a verified assertion, in one
// transaction: it uses up the assertion and the request it answers (so a
// replay is refused on every server), creates the user and their membership
// on first sign-in (with the provider's default role and team), marks the
// member sso and issues them an API token.
//
// The provider signs in only addresses at domains its organization proved
// (checkSSODomain) and accounts its organization may vouch for (see
// ssoAccount): an organization's identity provider must never hand out API
// tokens good in organizations that do not trust it.
func (db *DB) SignInWithSAML(ctx context.Context, in SAMLSignIn) (out *SAMLSession, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		p, err := tx.SAMLProvider(ctx, in.OrgID, in.ProviderID)
		if err != nil {
			return err
		}
		if !in.RequestExpires.After(tx.Now) {
			return quire.Errorf(quire.CodeUnauthorized, "SAML response refused: the sign-in it answers has expired; start again")
		}
		now := micros(tx.Now)
		if _, err := tx.q.exec(ctx, "DELETE FROM saml_assertions WHERE expires_at < ?", now); err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM saml_requests WHERE expires_at < ?", now); err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, "INSERT INTO saml_assertions (provider_id, id, expires_at) VALUES (?, ?, ?)", p.ID, in.AssertionID, micros(in.Expires))
		if quire.ErrorCode(err) == quire.CodeConflict {
			return errAssertionUsed
		}
		if err != nil {
			return err
		}
		_, err = tx.q.exec(ctx, "INSERT INTO saml_requests (id, provider_id, expires_at) VALUES (?, ?, ?)", in.RequestID, p.ID, micros(in.RequestExpires))
		if quire.ErrorCode(err) == quire.CodeConflict {
			return quire.Errorf(quire.CodeUnauthorized, "SAML response refused: the sign-in it answers was already used; start again")
		}
		if err != nil {
			return err
		}
		if err := tx.checkSSODomain(ctx, in.OrgID, in.Email); err != nil {
			return err
		}
		u, err := tx.ssoAccount(ctx, in.OrgID, in.Email, in.DisplayName)
		if err != nil {
			return err
		}
		out = &SAMLSession{}
		m, err := tx.Membership(ctx, in.OrgID, u.ID)
		switch {
		case quire.ErrorCode(err) == quire.CodeNotFound:
			out.Joined = true
			if err := tx.AddMember(ctx, in.OrgID, u.ID, p.DefaultRole); err != nil {
				return err
			}
			if p.DefaultTeam != nil {
				if err := tx.putTeamMember(ctx, p.DefaultTeam.ID, u.ID, quire.TeamMember, false); err != nil {
					return err
				}
			}
		case err != nil:
			return err
		case m.Disabled:
			return quire.Errorf(quire.CodeForbidden, "this member is disabled in the organization")
		}
		if _, err := tx.q.exec(ctx, "UPDATE members SET sso = TRUE WHERE org_id = ? AND user_id = ?", in.OrgID, u.ID); err != nil {
			return err
		}
		if out.Member, err = tx.Member(ctx, in.OrgID, u.ID); err != nil {
			return err
		}
		if in.NoToken {
			return nil
		}
		out.Token, err = tx.CreateToken(ctx, u.ID)
		return err
	})
	return out, err
}

// checkSSODomain refuses an address at an e-mail domain orgID has not
// proved it owns: an identity provider may assert any address, and one
// that signed in someone else's would take their account over.
func (tx *Tx) checkSSODomain(ctx context.Context, orgID, email string) error {
	domain := EmailDomain(email)
	ok, err := tx.hasVerifiedEmailDomain(ctx, orgID, domain)
	if err != nil || ok {
		return err
	}
	return quire.Errorf(quire.CodeForbidden,
		"%s cannot sign in through this organization's single sign-on: the organization has not verified that it owns the e-mail domain %q; an admin verifies it in the organization's single sign-on settings", email, domain)
}
