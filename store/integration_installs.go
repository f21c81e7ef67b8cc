package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/quiredocs/quire"
)

// Installing integrations (issue 19): installations on an organization,
// their spaces and sites, temporary tokens, and the events each change
// records in the same transaction.

const installationFrom = ` FROM integration_installations n`

const installationSelect = "SELECT " + installationColumns + `, n.installed_by,
	(SELECT COUNT(*) FROM integration_space_installations s WHERE s.installation_id = n.id)` + installationFrom

func scanInstallation(row interface{ Scan(...any) error }) (*quire.IntegrationInstallation, error) {
	var in quire.IntegrationInstallation
	var config string
	var by sql.NullString
	var created, updated int64
	if err := row.Scan(&in.ID, &in.Integration, &in.OrgID, &in.Status, &in.SpaceSelection, &in.SiteSelection,
		&config, &created, &updated, &by, &in.Spaces); err != nil {
		return nil, err
	}
	in.Configuration, in.CreatedAt, in.UpdatedAt, in.InstalledBy = json.RawMessage(config), fromMicros(created), fromMicros(updated), by.String
	return &in, nil
}

// IntegrationInstallationByID returns an installation of the integration.
func (r reader) IntegrationInstallationByID(ctx context.Context, name, id string) (*quire.IntegrationInstallation, error) {
	in, err := scanInstallation(r.q.queryRow(ctx, installationSelect+" WHERE n.integration = ? AND n.id = ?", name, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "installation not found")
	}
	if err != nil {
		return nil, err
	}
	in.ExternalIDs, err = r.installationExternalIDs(ctx, in.ID)
	return in, err
}

// OrgIntegrationInstallation returns the installation of the integration on
// the organization.
func (r reader) OrgIntegrationInstallation(ctx context.Context, orgID, name string) (*quire.IntegrationInstallation, error) {
	var id string
	err := r.q.queryRow(ctx, "SELECT id FROM integration_installations WHERE org_id = ? AND integration = ?", orgID, name).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "installation not found")
	}
	if err != nil {
		return nil, err
	}
	return r.IntegrationInstallationByID(ctx, name, id)
}

// ListOrgInstallations pages the installations on an organization, by
// integration name; search narrows to names or titles containing it.
func (r reader) ListOrgInstallations(ctx context.Context, orgID, search string, p Page) (*List[*quire.IntegrationInstallation], error) {
	where, args := " WHERE n.org_id = ?", []any{orgID}
	if search != "" {
		pattern := "%" + likeEscaper.Replace(strings.ToLower(search)) + "%"
		where += ` AND EXISTS (SELECT 1 FROM integrations i WHERE i.name = n.integration AND (LOWER(i.name) LIKE ? ESCAPE '\' OR i.title_key LIKE ? ESCAPE '\'))`
		args = append(args, pattern, pattern)
	}
	list, err := listKeyset(ctx, r.q, "SELECT COUNT(*)"+installationFrom, installationSelect, where, args,
		keysetOrder{key: "n.integration", id: "n.id"}, p, func(rows *sql.Rows) (*quire.IntegrationInstallation, Cursor, error) {
			in, err := scanInstallation(rows)
			if err != nil {
				return nil, Cursor{}, err
			}
			return in, Cursor{Str: in.Integration, ID: in.ID}, nil
		})
	if err != nil {
		return nil, err
	}
	for _, in := range list.Items {
		if in.ExternalIDs, err = r.installationExternalIDs(ctx, in.ID); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// InstallIntegration installs an integration on an organization for all
// its spaces and sites, as userID, and records an installation_setup event.
// A second installation on the same organization is a conflict.
func (db *DB) InstallIntegration(ctx context.Context, name, orgID, userID string) (in *quire.IntegrationInstallation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Integration(ctx, name); err != nil {
			return err
		}
		id := newID()
		n, err := tx.q.affected(ctx, `INSERT INTO integration_installations (id, integration, org_id, status, space_selection,
			site_selection, configuration, created_at, updated_at, installed_by) VALUES (?, ?, ?, 'active', 'all', 'all', '{}', ?, ?, ?)
			ON CONFLICT (org_id, integration) DO NOTHING`, id, name, orgID, micros(tx.Now), micros(tx.Now), userID)
		if err != nil {
			return err
		}
		if n == 0 {
			return quire.Errorf(quire.CodeConflict, "integration %q is already installed on this organization", name)
		}
		if err := tx.integrationEvent(ctx, name, id, map[string]any{"type": "installation_setup", "status": "active"}); err != nil {
			return err
		}
		in, err = tx.IntegrationInstallationByID(ctx, name, id)
		return err
	})
	return in, err
}

// InstallationUpdate is a change to an installation; nil fields stay.
type InstallationUpdate struct {
	ExternalIDs    *[]string
	Configuration  json.RawMessage
	SpaceSelection *string
	SiteSelection  *string
}

// UpdateIntegrationInstallation applies u and records an
// installation_setup event with the state before.
func (db *DB) UpdateIntegrationInstallation(ctx context.Context, name, id string, u InstallationUpdate) (in *quire.IntegrationInstallation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		before, err := tx.IntegrationInstallationByID(ctx, name, id)
		if err != nil {
			return err
		}
		config, spaces, sites := before.Configuration, before.SpaceSelection, before.SiteSelection
		if u.Configuration != nil {
			config = u.Configuration
		}
		if u.SpaceSelection != nil {
			spaces = *u.SpaceSelection
		}
		if u.SiteSelection != nil {
			sites = *u.SiteSelection
		}
		if _, err := tx.q.exec(ctx, `UPDATE integration_installations SET configuration = ?, space_selection = ?, site_selection = ?,
			updated_at = ? WHERE id = ?`, string(config), spaces, sites, micros(tx.Now), id); err != nil {
			return err
		}
		if u.ExternalIDs != nil {
			if _, err := tx.q.exec(ctx, "DELETE FROM integration_installation_external_ids WHERE installation_id = ?", id); err != nil {
				return err
			}
			for _, x := range *u.ExternalIDs {
				if _, err := tx.q.exec(ctx, "INSERT INTO integration_installation_external_ids (installation_id, external_id) VALUES (?, ?) ON CONFLICT DO NOTHING", id, x); err != nil {
					return err
				}
			}
		}
		if err := tx.integrationEvent(ctx, name, id, map[string]any{"type": "installation_setup", "status": before.Status,
			"previous": map[string]any{"status": before.Status, "configuration": before.Configuration}}); err != nil {
			return err
		}
		in, err = tx.IntegrationInstallationByID(ctx, name, id)
		return err
	})
	return in, err
}

// UninstallIntegration deletes an installation with its spaces, sites and
// tokens, and records an installation_deleted event; it reports whether
// there was one.
func (db *DB) UninstallIntegration(ctx context.Context, name, id string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		before, err := tx.IntegrationInstallationByID(ctx, name, id)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM integration_installations WHERE id = ?", id); err != nil {
			return err
		}
		deleted = true
		return tx.integrationEvent(ctx, name, id, map[string]any{"type": "installation_deleted",
			"previous": map[string]any{"configuration": before.Configuration}})
	})
	return deleted, err
}

// ContentKind names what an installation is set up on: spaces or sites.
type ContentKind struct {
	table, column, event string
}

// The two kinds of content installations.
var (
	SpaceInstallations = ContentKind{"integration_space_installations", "space_id", "space"}
	SiteInstallations  = ContentKind{"integration_site_installations", "site_id", "site"}
)

func (k ContentKind) selectFrom() string {
	return "SELECT c.installation_id, n.integration, n.org_id, c." + k.column + `, c.status, c.configuration, c.external_ids,
		c.created_at, c.updated_at FROM ` + k.table + " c JOIN integration_installations n ON n.id = c.installation_id"
}

func (k ContentKind) countFrom() string {
	return "SELECT COUNT(*) FROM " + k.table + " c JOIN integration_installations n ON n.id = c.installation_id"
}

func scanContentInstallation(row interface{ Scan(...any) error }) (*quire.IntegrationContentInstallation, error) {
	var c quire.IntegrationContentInstallation
	var config, ids string
	var created, updated int64
	if err := row.Scan(&c.InstallationID, &c.Integration, &c.OrgID, &c.TargetID, &c.Status, &config, &ids, &created, &updated); err != nil {
		return nil, err
	}
	c.Configuration, c.CreatedAt, c.UpdatedAt = json.RawMessage(config), fromMicros(created), fromMicros(updated)
	return &c, json.Unmarshal([]byte(ids), &c.ExternalIDs)
}

// ContentInstallation returns the installation's setup on a space or site.
func (r reader) ContentInstallation(ctx context.Context, k ContentKind, installationID, targetID string) (*quire.IntegrationContentInstallation, error) {
	c, err := scanContentInstallation(r.q.queryRow(ctx, k.selectFrom()+" WHERE c.installation_id = ? AND c."+k.column+" = ?", installationID, targetID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "%s installation not found", k.event)
	}
	return c, err
}

// ContentInstallationFilter selects content installations: of an
// integration, one of its installations, or an organization, perhaps only
// those of one space or site, or carrying an external id.
type ContentInstallationFilter struct {
	Integration    string
	InstallationID string
	OrgID          string
	TargetID       string
	ExternalID     string
}

// ListContentInstallations pages the space or site installations f selects,
// oldest first.
func (r reader) ListContentInstallations(ctx context.Context, k ContentKind, f ContentInstallationFilter, p Page) (*List[*quire.IntegrationContentInstallation], error) {
	where, args := " WHERE 1 = 1", []any{}
	for _, c := range []struct{ col, v string }{
		{"n.integration", f.Integration}, {"c.installation_id", f.InstallationID}, {"n.org_id", f.OrgID}, {"c." + k.column, f.TargetID},
	} {
		if c.v != "" {
			where += " AND " + c.col + " = ?"
			args = append(args, c.v)
		}
	}
	if f.ExternalID != "" {
		// External ids are a JSON array of strings: the quoted, escaped id
		// is found only as a whole element.
		b, _ := json.Marshal(f.ExternalID)
		where += ` AND c.external_ids LIKE ? ESCAPE '\'`
		args = append(args, "%"+likeEscaper.Replace(string(b))+"%")
	}
	return listKeyset(ctx, r.q, k.countFrom(), k.selectFrom(), where, args,
		keysetOrder{key: "c.created_at", id: "c." + k.column, numeric: true}, p,
		func(rows *sql.Rows) (*quire.IntegrationContentInstallation, Cursor, error) {
			c, err := scanContentInstallation(rows)
			if err != nil {
				return nil, Cursor{}, err
			}
			return c, Cursor{Num: micros(c.CreatedAt), ID: c.TargetID}, nil
		})
}

// InstallOnContent sets an installation up on a space or site of its
// organization (the caller checked it is one) and records a
// space_installation_setup or site_installation_setup event. Setting up
// twice is a conflict.
func (db *DB) InstallOnContent(ctx context.Context, k ContentKind, in *quire.IntegrationInstallation, targetID string) (c *quire.IntegrationContentInstallation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "INSERT INTO "+k.table+" (installation_id, "+k.column+`, status, configuration, external_ids,
			created_at, updated_at) VALUES (?, ?, 'active', '{}', '[]', ?, ?) ON CONFLICT DO NOTHING`, in.ID, targetID, micros(tx.Now), micros(tx.Now))
		if err != nil {
			return err
		}
		if n == 0 {
			return quire.Errorf(quire.CodeConflict, "the installation is already set up on this %s", k.event)
		}
		if err := tx.integrationEvent(ctx, in.Integration, in.ID, map[string]any{"type": k.event + "_installation_setup",
			k.event + "Id": targetID, "status": "active"}); err != nil {
			return err
		}
		c, err = tx.ContentInstallation(ctx, k, in.ID, targetID)
		return err
	})
	return c, err
}

// ContentInstallationUpdate is a change to a space or site installation;
// nil fields stay.
type ContentInstallationUpdate struct {
	ExternalIDs   *[]string
	Configuration json.RawMessage
}

// UpdateContentInstallation applies u and records a *_installation_setup
// event with the state before.
func (db *DB) UpdateContentInstallation(ctx context.Context, k ContentKind, installationID, targetID string, u ContentInstallationUpdate) (c *quire.IntegrationContentInstallation, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		before, err := tx.ContentInstallation(ctx, k, installationID, targetID)
		if err != nil {
			return err
		}
		config, ids := before.Configuration, before.ExternalIDs
		if u.Configuration != nil {
			config = u.Configuration
		}
		if u.ExternalIDs != nil {
			ids = *u.ExternalIDs
		}
		rawIDs, _ := json.Marshal(ids)
		if _, err := tx.q.exec(ctx, "UPDATE "+k.table+" SET configuration = ?, external_ids = ?, updated_at = ? WHERE installation_id = ? AND "+k.column+" = ?",
			string(config), string(rawIDs), micros(tx.Now), installationID, targetID); err != nil {
			return err
		}
		if err := tx.integrationEvent(ctx, before.Integration, installationID, map[string]any{"type": k.event + "_installation_setup",
			k.event + "Id": targetID, "status": before.Status,
			"previous": map[string]any{"status": before.Status, "configuration": before.Configuration}}); err != nil {
			return err
		}
		c, err = tx.ContentInstallation(ctx, k, installationID, targetID)
		return err
	})
	return c, err
}

// UninstallFromContent removes an installation from a space or site and
// records a *_installation_deleted event; it reports whether there was one.
func (db *DB) UninstallFromContent(ctx context.Context, k ContentKind, installationID, targetID string) (deleted bool, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		before, err := tx.ContentInstallation(ctx, k, installationID, targetID)
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM "+k.table+" WHERE installation_id = ? AND "+k.column+" = ?", installationID, targetID); err != nil {
			return err
		}
		deleted = true
		return tx.integrationEvent(ctx, before.Integration, installationID, map[string]any{"type": k.event + "_installation_deleted",
			k.event + "Id": targetID, "previous": map[string]any{"configuration": before.Configuration}})
	})
	return deleted, err
}

// ContentInstalled reports whether an installation reaches a space or site
// of its organization: all of them, or those it was set up on.
func (r reader) ContentInstalled(ctx context.Context, k ContentKind, in *quire.IntegrationInstallation, targetID string) (bool, error) {
	selection := in.SpaceSelection
	if k == SiteInstallations {
		selection = in.SiteSelection
	}
	if selection == "all" {
		return true, nil
	}
	_, err := r.ContentInstallation(ctx, k, in.ID, targetID)
	if quire.ErrorCode(err) == quire.CodeNotFound {
		return false, nil
	}
	return err == nil, err
}

// SpaceInstallations lists the active installations on an organization
// that reach a space, by integration name.
func (r reader) SpaceInstallations(ctx context.Context, orgID, spaceID string) ([]*quire.IntegrationInstallation, error) {
	rows, err := r.q.query(ctx, installationSelect+` WHERE n.org_id = ? AND (n.space_selection = 'all' OR EXISTS
		(SELECT 1 FROM integration_space_installations s WHERE s.installation_id = n.id AND s.space_id = ?)) ORDER BY n.integration`, orgID, spaceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*quire.IntegrationInstallation
	for rows.Next() {
		in, err := scanInstallation(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
	return out, rows.Err()
}

// InstallationTokenTTL is how long an installation token works.
const InstallationTokenTTL = time.Hour

// CreateInstallationToken issues a temporary token for an installation and
// returns it: the one time it can be read.
func (db *DB) CreateInstallationToken(ctx context.Context, installationID string) (token string, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		var hash string
		token, hash = newToken()
		if _, err := tx.q.exec(ctx, "DELETE FROM integration_installation_tokens WHERE expires_at < ?", micros(tx.Now)); err != nil {
			return err
		}
		_, err := tx.q.exec(ctx, "INSERT INTO integration_installation_tokens (hash, installation_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
			hash, installationID, micros(tx.Now), micros(tx.Now.Add(InstallationTokenTTL)))
		return err
	})
	return token, err
}

// InstallationByToken returns the active installation an unexpired
// installation token belongs to, and the account it acts as (its
// installer); any other token is CodeUnauthorized.
func (db *DB) InstallationByToken(ctx context.Context, token string) (*quire.IntegrationInstallation, *quire.User, error) {
	var name, id string
	err := db.q.queryRow(ctx, `SELECT n.integration, n.id FROM integration_installation_tokens t
		JOIN integration_installations n ON n.id = t.installation_id WHERE t.hash = ? AND t.expires_at > ? AND n.status = 'active'`,
		hashToken(token), micros(db.Now())).Scan(&name, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, quire.Errorf(quire.CodeUnauthorized, "invalid API token")
	}
	if err != nil {
		return nil, nil, err
	}
	in, err := db.IntegrationInstallationByID(ctx, name, id)
	if err != nil {
		return nil, nil, err
	}
	if in.InstalledBy == "" {
		return nil, nil, quire.Errorf(quire.CodeUnauthorized, "invalid API token: the account that installed the integration is gone")
	}
	u, err := db.User(ctx, in.InstalledBy)
	if err != nil {
		return nil, nil, err
	}
	return in, u, nil
}

// integrationEvent records an event of an integration about one of its
// installations; payload gets its eventId and installationId here.
func (tx *Tx) integrationEvent(ctx context.Context, name, installationID string, payload map[string]any) error {
	id := newID()
	payload["eventId"], payload["installationId"] = id, installationID
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	_, err = tx.q.exec(ctx, "INSERT INTO integration_events (id, integration, installation_id, payload, created_at) VALUES (?, ?, ?, ?, ?)",
		id, name, installationID, string(raw), micros(tx.Now))
	return err
}

func scanIntegrationEvent(row interface{ Scan(...any) error }) (*quire.IntegrationEvent, error) {
	var ev quire.IntegrationEvent
	var payload string
	var created int64
	if err := row.Scan(&ev.ID, &ev.Integration, &ev.InstallationID, &payload, &created); err != nil {
		return nil, err
	}
	ev.Payload, ev.CreatedAt = json.RawMessage(payload), fromMicros(created)
	return &ev, nil
}

const integrationEventSelect = "SELECT e.id, e.integration, e.installation_id, e.payload, e.created_at FROM integration_events e"

// ListIntegrationEvents pages an integration's events, newest first.
func (r reader) ListIntegrationEvents(ctx context.Context, name string, p Page) (*List[*quire.IntegrationEvent], error) {
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM integration_events e", integrationEventSelect, " WHERE e.integration = ?", []any{name},
		keysetOrder{key: "e.created_at", id: "e.id", desc: true, numeric: true}, p, func(rows *sql.Rows) (*quire.IntegrationEvent, Cursor, error) {
			ev, err := scanIntegrationEvent(rows)
			if err != nil {
				return nil, Cursor{}, err
			}
			return ev, Cursor{Num: micros(ev.CreatedAt), ID: ev.ID}, nil
		})
}

// IntegrationEventByID returns one of an integration's events.
func (r reader) IntegrationEventByID(ctx context.Context, name, id string) (*quire.IntegrationEvent, error) {
	ev, err := scanIntegrationEvent(r.q.queryRow(ctx, integrationEventSelect+" WHERE e.integration = ? AND e.id = ?", name, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "event not found")
	}
	return ev, err
}
