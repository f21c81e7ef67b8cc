package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"

	"github.com/quiredocs/quire"
)

const integrationColumns = `i.name, i.org_id, i.version, i.title, i.description, i.summary, i.visibility, i.target,
	i.runtime, i.scopes, i.categories, i.blocks, i.content_sources, i.configurations, i.external_links, i.csp,
	i.icon, i.preview_images, i.script, i.created_at, i.updated_at`

type integrationRow struct {
	in                        quire.Integration
	scopes, categories        string
	blocks, sources, links    string
	configurations, csp, icon sql.NullString
	previews                  string
	created, updated          int64
}

func (r *integrationRow) dest() []any {
	i := &r.in
	return []any{&i.Name, &i.OrgID, &i.Version, &i.Title, &i.Description, &i.Summary, &i.Visibility, &i.Target,
		&i.Runtime, &r.scopes, &r.categories, &r.blocks, &r.sources, &r.configurations, &r.links, &r.csp,
		&r.icon, &r.previews, &i.Script, &r.created, &r.updated}
}

func (r *integrationRow) value() (*quire.Integration, error) {
	i := r.in
	i.CreatedAt, i.UpdatedAt = fromMicros(r.created), fromMicros(r.updated)
	i.Blocks, i.ContentSources, i.ExternalLinks = json.RawMessage(r.blocks), json.RawMessage(r.sources), json.RawMessage(r.links)
	if r.configurations.Valid {
		i.Configurations = json.RawMessage(r.configurations.String)
	}
	if r.csp.Valid {
		i.ContentSecurityPolicy = json.RawMessage(r.csp.String)
	}
	if r.icon.Valid {
		i.Icon = new(quire.IntegrationAsset)
		if err := json.Unmarshal([]byte(r.icon.String), i.Icon); err != nil {
			return nil, err
		}
	}
	for _, f := range []struct {
		src string
		dst any
	}{{r.scopes, &i.Scopes}, {r.categories, &i.Categories}, {r.previews, &i.PreviewImages}} {
		if err := json.Unmarshal([]byte(f.src), f.dst); err != nil {
			return nil, err
		}
	}
	return &i, nil
}

// Integration returns a published integration by name.
func (r reader) Integration(ctx context.Context, name string) (*quire.Integration, error) {
	return scanOneChecked[integrationRow, *quire.Integration](ctx, r.q, "integration", "SELECT "+integrationColumns+" FROM integrations i WHERE i.name = ?", name)
}

// IntegrationFilter narrows an integration list. Contract §4.17.
type IntegrationFilter struct {
	// ViewerID sees public integrations and every integration of the
	// organizations they belong to.
	ViewerID       string
	Search         string // case-insensitive, in the name or the title
	Category       string
	Scope          string
	Target         string // installable there: that target or "all"
	BlockDomain    string // some block unfurls URLs of this host or a parent domain of it
	Blocks         *bool  // with (true) or without (false) blocks
	ContentSources *bool  // with (true) or without (false) content sources
	Owner          string // organization id
	// Org, when set, replaces ViewerID: public integrations and those the
	// organization publishes, as the organization sees them.
	Org string
}

// ListIntegrations lists the integrations f lets through, by name.
func (r reader) ListIntegrations(ctx context.Context, f IntegrationFilter, p Page) (*List[*quire.Integration], error) {
	where := " WHERE (i.visibility = 'public' OR EXISTS (SELECT 1 FROM members m WHERE m.org_id = i.org_id AND m.user_id = ?))"
	args := []any{f.ViewerID}
	if f.Org != "" {
		where, args = " WHERE (i.visibility = 'public' OR i.org_id = ?)", []any{f.Org}
	}
	if f.Search != "" {
		pattern := "%" + likeEscaper.Replace(strings.ToLower(f.Search)) + "%"
		where += ` AND (LOWER(i.name) LIKE ? ESCAPE '\' OR i.title_key LIKE ? ESCAPE '\')`
		args = append(args, pattern, pattern)
	}
	// Scopes and categories are JSON arrays of enum values, which need no
	// escaping: '"value"' is found only as a whole element.
	if f.Category != "" {
		where += " AND i.categories LIKE ?"
		args = append(args, `%"`+f.Category+`"%`)
	}
	if f.Scope != "" {
		where += " AND i.scopes LIKE ?"
		args = append(args, `%"`+f.Scope+`"%`)
	}
	if f.Target != "" {
		where += " AND i.target IN (?, 'all')"
		args = append(args, f.Target)
	}
	if f.BlockDomain != "" {
		domains := quire.DomainMatches(f.BlockDomain)
		where += " AND EXISTS (SELECT 1 FROM integration_block_domains d WHERE d.integration = i.name AND d.domain IN (?" +
			strings.Repeat(", ?", len(domains)-1) + "))"
		for _, d := range domains {
			args = append(args, d)
		}
	}
	for col, want := range map[string]*bool{"i.blocks": f.Blocks, "i.content_sources": f.ContentSources} {
		if want != nil {
			op := "="
			if *want {
				op = "<>"
			}
			where += " AND " + col + " " + op + " '[]'"
		}
	}
	if f.Owner != "" {
		where += " AND i.org_id = ?"
		args = append(args, f.Owner)
	}
	return listKeyset(ctx, r.q, "SELECT COUNT(*) FROM integrations i", "SELECT "+integrationColumns+" FROM integrations i", where, args,
		keysetOrder{key: "i.name", id: "i.name"}, p, func(rows *sql.Rows) (*quire.Integration, Cursor, error) {
			var row integrationRow
			if err := rows.Scan(row.dest()...); err != nil {
				return nil, Cursor{}, err
			}
			in, err := row.value()
			if err != nil {
				return nil, Cursor{}, err
			}
			return in, Cursor{Str: in.Name, ID: in.Name}, nil
		})
}

// IntegrationPublish is what publishing an integration writes: every field
// of in but its version and times, the domains its blocks unfurl, and its
// sealed secrets.
type IntegrationPublish struct {
	Integration  quire.Integration
	BlockDomains []string
	// Secrets are the sealed secrets; nil with SetSecrets keeps none, and
	// without SetSecrets the stored secrets stay as they are.
	Secrets    []byte
	SetSecrets bool
}

// PublishIntegration publishes an integration under its name for its
// organization: version 1 the first time, one more each time after.
// A name another organization published is a conflict.
func (db *DB) PublishIntegration(ctx context.Context, p IntegrationPublish) (in *quire.Integration, err error) {
	i := &p.Integration
	err = db.Tx(ctx, func(tx *Tx) error {
		cols := integrationValues(i)
		names := make([]string, 0, len(cols))
		vals := make([]any, 0, len(cols))
		for _, c := range cols {
			names = append(names, c.name)
			vals = append(vals, c.value)
		}
		var secrets sql.NullString
		if p.Secrets != nil {
			secrets = sql.NullString{String: base64.StdEncoding.EncodeToString(p.Secrets), Valid: true}
		}
		now := micros(tx.Now)
		n, err := tx.q.affected(ctx, "INSERT INTO integrations (name, org_id, version, "+strings.Join(names, ", ")+
			", secrets, created_at, updated_at) VALUES (?, ?, 1"+strings.Repeat(", ?", len(cols))+", ?, ?, ?) ON CONFLICT (name) DO NOTHING",
			append(append([]any{i.Name, i.OrgID}, vals...), secrets, now, now)...)
		if err != nil {
			return err
		}
		if n == 0 {
			set := strings.Join(names, " = ?, ") + " = ?, version = version + 1, updated_at = ?"
			args := append(vals, now)
			if p.SetSecrets {
				set += ", secrets = ?"
				args = append(args, secrets)
			}
			if n, err := tx.q.affected(ctx, "UPDATE integrations SET "+set+" WHERE name = ? AND org_id = ?", append(args, i.Name, i.OrgID)...); err != nil {
				return err
			} else if n == 0 {
				return errNameTaken(ctx, tx, i.Name)
			}
		}
		if _, err := tx.q.exec(ctx, "DELETE FROM integration_block_domains WHERE integration = ?", i.Name); err != nil {
			return err
		}
		for _, d := range p.BlockDomains {
			if _, err := tx.q.exec(ctx, "INSERT INTO integration_block_domains (integration, domain) VALUES (?, ?) ON CONFLICT DO NOTHING", i.Name, d); err != nil {
				return err
			}
		}
		in, err = tx.Integration(ctx, i.Name)
		return err
	})
	return in, err
}

// errNameTaken refuses to publish under a name another organization
// holds: a conflict when its integration is visible to outsiders, and not
// found, as a read of it answers, when it is private, so that publishing
// does not tell which private names other organizations use.
func errNameTaken(ctx context.Context, tx *Tx, name string) error {
	held, err := tx.Integration(ctx, name)
	if err != nil {
		return err
	}
	if !held.VisibleTo(false) {
		return quire.Errorf(quire.CodeNotFound, "integration not found")
	}
	return quire.Errorf(quire.CodeConflict, "name: %q is published by another organization", name)
}

type integrationColumn struct {
	name  string
	value any
}

// integrationValues lists the columns a publish sets, with their values.
func integrationValues(i *quire.Integration) []integrationColumn {
	nullJSON := func(raw json.RawMessage) sql.NullString {
		return sql.NullString{String: string(raw), Valid: raw != nil}
	}
	var icon sql.NullString
	if i.Icon != nil {
		b, _ := json.Marshal(i.Icon)
		icon = sql.NullString{String: string(b), Valid: true}
	}
	orEmpty := func(raw json.RawMessage) string {
		if raw == nil {
			return "[]"
		}
		return string(raw)
	}
	list := func(v any) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	scopes, categories, previews := i.Scopes, i.Categories, i.PreviewImages
	if scopes == nil {
		scopes = []string{}
	}
	if categories == nil {
		categories = []string{}
	}
	if previews == nil {
		previews = []quire.IntegrationAsset{}
	}
	return []integrationColumn{
		{"title", i.Title}, {"title_key", strings.ToLower(i.Title)}, {"description", i.Description}, {"summary", i.Summary},
		{"visibility", i.Visibility}, {"target", i.Target}, {"runtime", i.Runtime},
		{"scopes", list(scopes)}, {"categories", list(categories)},
		{"blocks", orEmpty(i.Blocks)}, {"content_sources", orEmpty(i.ContentSources)},
		{"configurations", nullJSON(i.Configurations)}, {"external_links", orEmpty(i.ExternalLinks)},
		{"csp", nullJSON(i.ContentSecurityPolicy)}, {"icon", icon}, {"preview_images", list(previews)},
		{"script", i.Script},
	}
}

// IntegrationSecrets returns an integration's sealed secrets, nil when it
// has none. They are for the integration's runtime, never for clients.
func (r reader) IntegrationSecrets(ctx context.Context, name string) ([]byte, error) {
	var s sql.NullString
	err := r.q.queryRow(ctx, "SELECT secrets FROM integrations WHERE name = ?", name).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "integration not found")
	}
	if err != nil || !s.Valid {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s.String)
}

// DeleteIntegration unpublishes an organization's integration, with its
// installations, and reports whether there was one. Its images and script
// stay in the blob store, which other content may share.
func (db *DB) DeleteIntegration(ctx context.Context, orgID, name string) (deleted bool, err error) {
	return db.deleteSome(ctx, "DELETE FROM integrations WHERE name = ? AND org_id = ?", name, orgID)
}

// OrganizationByRef finds an organization by id or hostname: how a publish
// names the organization it publishes for.
func (r reader) OrganizationByRef(ctx context.Context, ref string) (*quire.Organization, error) {
	o, err := r.Organization(ctx, ref)
	if quire.ErrorCode(err) != quire.CodeNotFound {
		return o, err
	}
	var id string
	err = r.q.queryRow(ctx, "SELECT id FROM organizations WHERE hostname = ?", strings.ToLower(ref)).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "organization not found")
	}
	if err != nil {
		return nil, err
	}
	return r.Organization(ctx, id)
}

const installationColumns = `n.id, n.integration, n.org_id, n.status, n.space_selection, n.site_selection,
	n.configuration, n.created_at, n.updated_at`

// ListIntegrationInstallations lists an integration's installations, oldest
// first; with externalID, only those carrying that external id.
func (r reader) ListIntegrationInstallations(ctx context.Context, name, externalID string, p Page) (*List[*quire.IntegrationInstallation], error) {
	where, args := " WHERE n.integration = ?", []any{name}
	if externalID != "" {
		where += " AND EXISTS (SELECT 1 FROM integration_installation_external_ids x WHERE x.installation_id = n.id AND x.external_id = ?)"
		args = append(args, externalID)
	}
	list, err := listKeyset(ctx, r.q, "SELECT COUNT(*)"+installationFrom, installationSelect, where, args,
		keysetOrder{key: "n.created_at", id: "n.id", numeric: true}, p, func(rows *sql.Rows) (*quire.IntegrationInstallation, Cursor, error) {
			in, err := scanInstallation(rows)
			if err != nil {
				return nil, Cursor{}, err
			}
			return in, Cursor{Num: micros(in.CreatedAt), ID: in.ID}, nil
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

func (r reader) installationExternalIDs(ctx context.Context, id string) ([]string, error) {
	rows, err := r.q.query(ctx, "SELECT external_id FROM integration_installation_external_ids WHERE installation_id = ? ORDER BY external_id", id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		ids = append(ids, v)
	}
	return ids, rows.Err()
}

// CreateIntegrationInstallation records an active installation of an
// integration on an organization, for all its spaces and sites. No endpoint
// installs yet; this is the store's side of one.
func (db *DB) CreateIntegrationInstallation(ctx context.Context, name, orgID string, externalIDs []string, configuration json.RawMessage) (in *quire.IntegrationInstallation, err error) {
	if configuration == nil {
		configuration = json.RawMessage(`{}`)
	}
	err = db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.Integration(ctx, name); err != nil {
			return err
		}
		in = &quire.IntegrationInstallation{ID: newID(), Integration: name, OrgID: orgID, Status: "active",
			SpaceSelection: "all", SiteSelection: "all", Configuration: configuration, ExternalIDs: []string{},
			CreatedAt: tx.Now, UpdatedAt: tx.Now}
		if _, err := tx.q.exec(ctx, `INSERT INTO integration_installations (id, integration, org_id, status, space_selection,
			site_selection, configuration, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			in.ID, name, orgID, in.Status, in.SpaceSelection, in.SiteSelection, string(configuration), micros(tx.Now), micros(tx.Now)); err != nil {
			return err
		}
		for _, x := range externalIDs {
			if _, err := tx.q.exec(ctx, "INSERT INTO integration_installation_external_ids (installation_id, external_id) VALUES (?, ?) ON CONFLICT DO NOTHING", in.ID, x); err != nil {
				return err
			}
		}
		in.ExternalIDs, err = tx.installationExternalIDs(ctx, in.ID)
		return err
	})
	return in, err
}
