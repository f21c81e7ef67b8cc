package api

import (
	"cmp"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/insights"
	"github.com/quiredocs/quire/store"
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

// insightEventTypes is the reference's SiteInsightsEventType.
var insightEventTypes = []string{"page_view", "page_markdown_request", "search_open", "search_type_query", "search_open_result",
	"page_post_feedback", "page_post_feedback_comment", "agent_feedback", "ask_question", "ask_view", "ask_rate_response",
	"link_click", "api_client_open", "api_client_request", "ad_click", "ad_display", "trademark_click", "llms_request",
	"mcp_request", "rss_request"}

var insightDisplayContexts = []string{"site", "server", "embed", "mcp"}

const (
	maxTrackedEvents = 100             // events of one POST SITE/insights/events
	trackedEventSkew = 5 * time.Minute // how far an event's timestamp may be from now
)

// insightsBody is the body of POST SITE/insights/events/aggregate, checked
// as of now.
type insightsBody struct {
	insights.Query
	now time.Time
}

func (b *insightsBody) Validate() error { return b.Check(b.now) }

// insightCounts are the stored counts as insights reads them.
func insightCounts(counts []store.InsightCount) iter.Seq[insights.Count] {
	return func(yield func(insights.Count) bool) {
		for _, c := range counts {
			if !yield(insights.Count{Key: insights.Key(c.InsightKey), Events: c.Events}) {
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
	body := insightsBody{now: s.db.Now()}
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

// trackedEvent is an event of POST SITE/insights/events: what Quire keeps
// of the reference's SiteInsightsEvent. The session (cookies, address,
// user agent, referrer, claims) is read only to know whether the visitor
// was authenticated, and kept no further.
type trackedEvent struct {
	Type     string `json:"type"`
	Query    string `json:"query"`
	Location *struct {
		URL            string  `json:"url"`
		DisplayContext string  `json:"displayContext"`
		SiteSection    *string `json:"siteSection"`
		SiteSpace      *string `json:"siteSpace"`
		Space          *string `json:"space"`
		Page           *string `json:"page"`
	} `json:"location"`
	Session *struct {
		VisitorAuthClaims map[string]any `json:"visitorAuthClaims"`
	} `json:"session"`
	Timestamp *time.Time `json:"timestamp"`
}

type trackEventsBody struct {
	Events []trackedEvent `json:"events"`
}

func (b *trackEventsBody) Validate() error {
	if b.Events == nil {
		return errorf(quire.CodeInvalid, "events: is required")
	}
	if len(b.Events) > maxTrackedEvents {
		return errorf(quire.CodeInvalid, "events: must hold at most %d events", maxTrackedEvents)
	}
	for i, e := range b.Events {
		field := "events[" + strconv.Itoa(i) + "]"
		if !slices.Contains(insightEventTypes, e.Type) {
			return errorf(quire.CodeInvalid, "%s.type: must be one of %s", field, strings.Join(insightEventTypes, ", "))
		}
		if e.Session == nil {
			return errorf(quire.CodeInvalid, "%s.session: is required", field)
		}
		l := e.Location
		if l == nil {
			return errorf(quire.CodeInvalid, "%s.location: is required", field)
		}
		if u, err := url.Parse(l.URL); err != nil || !u.IsAbs() || len(l.URL) > 2048 {
			return errorf(quire.CodeInvalid, "%s.location.url: must be an absolute URL", field)
		}
		if l.DisplayContext != "" && !slices.Contains(insightDisplayContexts, l.DisplayContext) {
			return errorf(quire.CodeInvalid, "%s.location.displayContext: must be site, server, embed or mcp", field)
		}
		for name, v := range map[string]*string{"siteSection": l.SiteSection, "siteSpace": l.SiteSpace, "space": l.Space, "page": l.Page} {
			if v != nil && len(*v) > 256 {
				return errorf(quire.CodeInvalid, "%s.location.%s: must be at most 256 characters", field, name)
			}
		}
		if (e.Type == "search_type_query" || e.Type == "ask_question") && e.Query == "" {
			return errorf(quire.CodeInvalid, "%s.query: is required", field)
		}
		if err := quire.CheckLen(field+".query", e.Query, 0, 1000); err != nil {
			return err
		}
	}
	return nil
}

// trackSiteEvents answers POST SITE/insights/events: the events are
// counted, as the published site counts its own, and written at once.
func (s *Server) trackSiteEvents(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	var body trackEventsBody
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	now := s.db.Now().UTC()
	counts := map[store.InsightKey]int64{}
	for i, e := range body.Events {
		at := now
		if e.Timestamp != nil {
			if d := e.Timestamp.Sub(now); d > trackedEventSkew || d < -trackedEventSkew {
				return errorf(quire.CodeInvalid, "events[%d].timestamp: must be within 5 minutes of now", i)
			}
			at = e.Timestamp.UTC()
		}
		l := e.Location
		k := store.InsightKey{SiteID: site.ID, Hour: at.Truncate(time.Hour).Unix(), EventType: e.Type,
			DisplayContext: cmp.Or(l.DisplayContext, "site"), SiteSection: derefOr(l.SiteSection), SiteSpace: derefOr(l.SiteSpace),
			Space: derefOr(l.Space), Page: derefOr(l.Page), Authenticated: len(e.Session.VisitorAuthClaims) > 0}
		if k.Page == "" && (e.Type == "page_view" || e.Type == "search_open_result") {
			if u, err := url.Parse(l.URL); err == nil {
				k.URLPath = truncateRunes(u.EscapedPath(), 512)
			}
		}
		if e.Type == "search_type_query" {
			k.Query = insights.SearchText(e.Query)
		}
		counts[k]++
	}
	if err := s.db.AddInsightCounts(r.Context(), counts); err != nil {
		return err
	}
	return noContent(w)
}

func derefOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func truncateRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}
