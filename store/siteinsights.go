package store

import (
	"context"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/insights"
)

// Insights counts are written outside Tx, as rate limit counts are: they
// change nothing any cache holds, so they neither move the change count
// nor announce themselves.

// InsightKey is what one count of site_insight_counts is of: what
// package insights aggregates by.
type InsightKey = insights.Key

// InsightCount is a stored count.
type InsightCount struct {
	InsightKey
	Events int64
}

// MaxInsightRows bounds the counts one read returns.
const MaxInsightRows = 200_000

// AddInsightCounts adds each count to the stored one of its key, in one
// transaction; counts of sites deleted since they were made are dropped.
func (db *DB) AddInsightCounts(ctx context.Context, counts map[InsightKey]int64) error {
	if len(counts) == 0 {
		return nil
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return db.dialect.translate(err)
	}
	defer tx.Rollback()
	q := querier{tx, db.dialect, nil}
	for k, n := range counts {
		if _, err := q.exec(ctx, `INSERT INTO site_insight_counts (site_id, hour, event_type, display_context, site_section,
			site_space, space, page, url_path, query, authenticated, events)
			SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM sites WHERE id = ?)
			ON CONFLICT (site_id, hour, event_type, display_context, site_section, site_space, space, page, url_path, query, authenticated)
			DO UPDATE SET events = site_insight_counts.events + excluded.events`,
			k.SiteID, k.Hour, k.EventType, k.DisplayContext, k.SiteSection, k.SiteSpace, k.Space, k.Page, k.URLPath, k.Query,
			k.Authenticated, n, k.SiteID); err != nil {
			return db.dialect.translate(err)
		}
	}
	return db.dialect.translate(tx.Commit())
}

// InsightCounts reads the counts of a site in the hours from from (included)
// to to (excluded), of the event types given (all when none): 400 when
// there are more than MaxInsightRows.
func (r reader) InsightCounts(ctx context.Context, siteID string, from, to time.Time, types ...string) ([]InsightCount, error) {
	where, args := " WHERE site_id = ? AND hour >= ? AND hour < ?", []any{siteID, from.Unix(), to.Unix()}
	if len(types) > 0 {
		where += " AND event_type IN (?" + strings.Repeat(", ?", len(types)-1) + ")"
		for _, t := range types {
			args = append(args, t)
		}
	}
	rows, err := r.q.query(ctx, `SELECT hour, event_type, display_context, site_section, site_space, space, page, url_path, query,
		authenticated, events FROM site_insight_counts`+where+" LIMIT ?", append(args, MaxInsightRows+1)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []InsightCount
	for rows.Next() {
		c := InsightCount{InsightKey: InsightKey{SiteID: siteID}}
		if err := rows.Scan(&c.Hour, &c.EventType, &c.DisplayContext, &c.SiteSection, &c.SiteSpace, &c.Space, &c.Page, &c.URLPath,
			&c.Query, &c.Authenticated, &c.Events); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	if len(out) > MaxInsightRows {
		return nil, quire.Errorf(quire.CodeInvalid, "range: more than %d counts in the range; choose a shorter one", MaxInsightRows)
	}
	return out, rows.Err()
}

// DeleteInsightCountsBefore deletes the counts of the hours before t.
func (db *DB) DeleteInsightCountsBefore(ctx context.Context, t time.Time) error {
	_, err := querier{db.write, db.dialect, nil}.exec(ctx, "DELETE FROM site_insight_counts WHERE hour < ?", t.Unix())
	return db.dialect.translate(err)
}
