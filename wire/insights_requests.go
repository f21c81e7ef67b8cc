package wire

import (
	"cmp"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/insights"
	"github.com/quiredocs/quire/store"
)

// The request bodies of a site's insights: events tracked, and the query of
// their aggregation.

// AggregateSiteEvents is the body of POST SITE/insights/events/aggregate,
// the reference's SiteInsightsQueryEventsAggregation, checked as of Now.
type AggregateSiteEvents struct {
	insights.Query
	Now time.Time `json:"-"`
}

// Validate checks the query as of b.Now (insights.Query.Check).
func (b *AggregateSiteEvents) Validate() error { return b.Check(b.Now) }

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

// SiteInsightsEvent is an event of POST SITE/insights/events: what Quire
// keeps of the reference's SiteInsightsEvent. The session (cookies,
// address, user agent, referrer, claims) is read only to know whether the
// visitor was authenticated, and kept no further.
type SiteInsightsEvent struct {
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

// TrackEventsInSite is the body of POST SITE/insights/events, the
// reference's trackEventsInSiteById.
type TrackEventsInSite struct {
	Events []SiteInsightsEvent `json:"events"`
}

// Validate checks every event's type, session, location and query, in
// order.
func (b *TrackEventsInSite) Validate() error {
	if b.Events == nil {
		return quire.Errorf(quire.CodeInvalid, "events: is required")
	}
	if len(b.Events) > maxTrackedEvents {
		return quire.Errorf(quire.CodeInvalid, "events: must hold at most %d events", maxTrackedEvents)
	}
	for i, e := range b.Events {
		field := "events[" + strconv.Itoa(i) + "]"
		if !slices.Contains(insightEventTypes, e.Type) {
			return quire.Errorf(quire.CodeInvalid, "%s.type: must be one of %s", field, strings.Join(insightEventTypes, ", "))
		}
		if e.Session == nil {
			return quire.Errorf(quire.CodeInvalid, "%s.session: is required", field)
		}
		l := e.Location
		if l == nil {
			return quire.Errorf(quire.CodeInvalid, "%s.location: is required", field)
		}
		if u, err := url.Parse(l.URL); err != nil || !u.IsAbs() || len(l.URL) > 2048 {
			return quire.Errorf(quire.CodeInvalid, "%s.location.url: must be an absolute URL", field)
		}
		if l.DisplayContext != "" && !slices.Contains(insightDisplayContexts, l.DisplayContext) {
			return quire.Errorf(quire.CodeInvalid, "%s.location.displayContext: must be site, server, embed or mcp", field)
		}
		for name, v := range map[string]*string{"siteSection": l.SiteSection, "siteSpace": l.SiteSpace, "space": l.Space, "page": l.Page} {
			if v != nil && len(*v) > 256 {
				return quire.Errorf(quire.CodeInvalid, "%s.location.%s: must be at most 256 characters", field, name)
			}
		}
		if (e.Type == "search_type_query" || e.Type == "ask_question") && e.Query == "" {
			return quire.Errorf(quire.CodeInvalid, "%s.query: is required", field)
		}
		if err := quire.CheckLen(field+".query", e.Query, 0, 1000); err != nil {
			return err
		}
	}
	return nil
}

// Counts are the counts a validated b adds to site siteID's insights, each
// event in the hour it happened (now, unless its timestamp says, which
// must be within five minutes of now), keeping what insights keep of it.
func (b *TrackEventsInSite) Counts(siteID string, now time.Time) (map[store.InsightKey]int64, error) {
	counts := map[store.InsightKey]int64{}
	for i, e := range b.Events {
		at := now
		if e.Timestamp != nil {
			if d := e.Timestamp.Sub(now); d > trackedEventSkew || d < -trackedEventSkew {
				return nil, quire.Errorf(quire.CodeInvalid, "events[%d].timestamp: must be within 5 minutes of now", i)
			}
			at = e.Timestamp.UTC()
		}
		l := e.Location
		k := store.InsightKey{SiteID: siteID, Hour: at.Truncate(time.Hour).Unix(), EventType: e.Type,
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
	return counts, nil
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
