package api

import (
	"iter"
	"net/http"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/insights"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Site insights (the reference's site-insights operations) over what the
// published sites count (site/insights.go): events per site, UTC hour,
// type, display context, section, site space, page, path of a page not
// found, search text and whether the visitor was authenticated. Nothing
// identifies a visitor, a session, an address, a device or a referrer, so
// the columns about them are refused with 400 naming the column; no
// visitor-auth claim is kept, so visitor segments are by authentication
// only. Reading insights needs role read on the organization, as reading
// the site; tracking events through the API needs a token too (the
// published sites count their own without one).

// insightCounts are the stored counts as insights reads them.
func insightCounts(counts []store.InsightCount) iter.Seq[insights.Count] {
	return func(yield func(insights.Count) bool) {
		for _, c := range counts {
			if !yield(insights.Count{Key: c.InsightKey, Events: c.Events}) {
				return
			}
		}
	}
}

// aggregateSiteEvents answers POST SITE/insights/events/aggregate: the
// counts of the range that pass where, summed by groupBy, in order, as
// columns of select (insights.Aggregate).
func (s *Server) aggregateSiteEvents(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	body := wire.AggregateSiteEvents{Now: s.db.Now()}
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	from, to := body.Span()
	counts, err := s.db.InsightCounts(r.Context(), site.ID, from, to)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, insights.Aggregate(&body.Query, insightCounts(counts)))
}

// visitorSegmentJSON is the reference's SiteInsightsVisitorSegment.
type visitorSegmentJSON struct {
	Title    string         `json:"title"`
	Claims   map[string]any `json:"claims"`
	Events   int64          `json:"events"`
	Visitors int64          `json:"visitors"`
	Sessions int64          `json:"sessions"`
}

// listSiteVisitorSegments answers GET SITE/insights/visitor-segments: the
// events of the last 30 days of visitors with a visitor-auth token and
// without one. Claims are not kept, so a segment's claims are {}; visitors
// and sessions are not counted (0).
func (s *Server) listSiteVisitorSegments(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	from, to := insights.LastHours(s.db.Now(), insights.Ranges["last30Days"])
	counts, err := s.db.InsightCounts(r.Context(), site.ID, from, to)
	if err != nil {
		return err
	}
	auth, anon := insights.Visitors(insightCounts(counts))
	items := []visitorSegmentJSON{}
	for _, seg := range []struct {
		title  string
		events int64
	}{{"Authenticated visitors", auth}, {"Anonymous visitors", anon}} {
		if seg.events > 0 {
			items = append(items, visitorSegmentJSON{Title: seg.title, Claims: map[string]any{}, Events: seg.events})
		}
	}
	return writeJSON(w, http.StatusOK, listJSON[visitorSegmentJSON]{Items: items, Count: len(items)})
}

// getSiteQuestionStats answers GET SITE/question-stats from the questions
// asked of the site (ask_question events) from from to to (the last 3
// months by default): every question gets one answer, which nobody rates
// and nothing classifies, so those counts are of "unrated" and "unknown".
func (s *Server) getSiteQuestionStats(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	q := query(r)
	now := s.db.Now().UTC()
	from, to := insights.PulseSpan(now)
	for _, p := range []struct {
		name string
		t    *time.Time
	}{{"from", &from}, {"to", &to}} {
		if v := q.Get(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return errorf(quire.CodeInvalid, "%s: must be a date-time (RFC 3339)", p.name)
			}
			*p.t = t.UTC()
		}
	}
	for _, name := range []string{"topic", "relevance", "channelType", "answered"} {
		if len(q[name]) > 0 {
			return errorf(quire.CodeInvalid, "%s: Quire does not classify questions; leave it out", name)
		}
	}
	if !to.After(from) {
		return errorf(quire.CodeInvalid, "to: must be after from")
	}
	counts, err := s.db.InsightCounts(r.Context(), site.ID, from.Truncate(time.Hour), to, "ask_question")
	if err != nil {
		return err
	}
	st := insights.Questions(insightCounts(counts), now)
	total := st.Total
	return writeJSON(w, http.StatusOK, map[string]any{
		"total": total, "answers": total,
		"feedback":     map[string]int64{"positive": 0, "negative": 0, "unrated": total},
		"answered":     map[string]int64{"yes": 0, "partially": 0, "no": 0},
		"relevance":    map[string]int64{"relevant": 0, "spam": 0, "off-topic": 0, "unclear": 0},
		"types":        map[string]int64{"exploring": 0, "how-to": 0, "troubleshooting": 0, "reference": 0, "unknown": total},
		"channelTypes": st.Channels, "channels": map[string]int64{}, "weeklyPulse": st.Pulse,
	})
}

// trackSiteEvents answers POST SITE/insights/events: the events are
// counted, as the published site counts its own, and written at once.
func (s *Server) trackSiteEvents(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	var body wire.TrackEventsInSite
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	counts, err := body.Counts(site.ID, s.db.Now().UTC())
	if err != nil {
		return err
	}
	if err := s.db.AddInsightCounts(r.Context(), counts); err != nil {
		return err
	}
	return noContent(w)
}
