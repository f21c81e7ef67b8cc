package wire

import (
	"slices"
	"strconv"

	"github.com/quiredocs/quire"
)

// The request bodies of searching and asking a site.

const (
	// MaxSiteSearchQuery bounds a site search's query and an asked question,
	// in characters, as the reference says.
	MaxSiteSearchQuery = 512
	// MaxSiteSearchSpaces bounds the site spaces searched, as the published
	// site does.
	MaxSiteSearchSpaces = 50
)

// SiteSearchScope is the reference's SiteSearchScope, and the deprecated
// forms at the top of a search's body (mode, siteSpaceIds, siteSpaceId).
type SiteSearchScope struct {
	Mode             string   `json:"mode"`
	CurrentSiteSpace string   `json:"currentSiteSpace"`
	RestrictTo       string   `json:"restrictTo"`
	SiteSpaceIDs     []string `json:"siteSpaceIds"`
	SiteSpaceID      string   `json:"siteSpaceId"` // deprecated mode "current"
}

// check checks the scope, named field in messages.
func (sc *SiteSearchScope) check(field string) error {
	switch sc.Mode {
	case "default":
		if sc.RestrictTo != "" {
			if sc.CurrentSiteSpace == "" {
				return quire.Errorf(quire.CodeInvalid, "%s.currentSiteSpace: is required with restrictTo", field)
			}
			if sc.RestrictTo != "currentSiteSpace" && sc.RestrictTo != "otherSiteSpaces" {
				return quire.Errorf(quire.CodeInvalid, "%s.restrictTo: must be currentSiteSpace or otherSiteSpaces", field)
			}
		}
	case "specific":
		if len(sc.SiteSpaceIDs) == 0 {
			return quire.Errorf(quire.CodeInvalid, "%s.siteSpaceIds: must list at least one site space", field)
		}
		if len(sc.SiteSpaceIDs) > MaxSiteSearchSpaces {
			return quire.Errorf(quire.CodeInvalid, "%s.siteSpaceIds: must list at most %d site spaces", field, MaxSiteSearchSpaces)
		}
	case "current":
		if sc.SiteSpaceID == "" {
			return quire.Errorf(quire.CodeInvalid, "siteSpaceId: is required with mode current")
		}
	case "all":
	default:
		return quire.Errorf(quire.CodeInvalid, "%s.mode: must be default, specific or all", field)
	}
	return nil
}

// Keeps reports whether a checked scope takes in ss.
func (sc *SiteSearchScope) Keeps(ss *quire.SiteSpace) bool {
	switch sc.Mode {
	case "specific":
		return slices.Contains(sc.SiteSpaceIDs, ss.ID)
	case "current":
		return ss.ID == sc.SiteSpaceID || ss.Default
	case "default":
		switch sc.RestrictTo {
		case "currentSiteSpace":
			return ss.ID == sc.CurrentSiteSpace
		case "otherSiteSpaces":
			return ss.Default && ss.ID != sc.CurrentSiteSpace
		}
		return ss.Default || ss.ID == sc.CurrentSiteSpace
	}
	return true
}

// SearchSiteContent is the body of POST SITE/search, the reference's
// searchSiteContent: a scope, or its deprecated forms at the top.
type SearchSiteContent struct {
	Query        string           `json:"query"`
	Scope        *SiteSearchScope `json:"scope"`
	Mode         string           `json:"mode"`
	SiteSpaceIDs []string         `json:"siteSpaceIds"`
	SiteSpaceID  string           `json:"siteSpaceId"`

	scope SiteSearchScope
}

// Validate checks the query, then the scope, made from the deprecated
// fields when scope is absent.
func (b *SearchSiteContent) Validate() error {
	if err := quire.CheckQuery("query", b.Query, MaxSiteSearchQuery); err != nil {
		return err
	}
	if b.Scope != nil {
		b.scope = *b.Scope
		return b.scope.check("scope")
	}
	b.scope = SiteSearchScope{Mode: b.Mode, SiteSpaceIDs: b.SiteSpaceIDs, SiteSpaceID: b.SiteSpaceID}
	switch {
	case b.Mode == "" && len(b.SiteSpaceIDs) > 0:
		b.scope.Mode = "specific"
	case b.Mode == "":
		return quire.Errorf(quire.CodeInvalid, "scope: is required")
	}
	return b.scope.check("scope")
}

// SearchScope is the scope a validated b searches.
func (b *SearchSiteContent) SearchScope() *SiteSearchScope { return &b.scope }

// StreamAskInSite is the body of POST SITE/ask, the reference's
// streamAskInSite.
type StreamAskInSite struct {
	Question string           `json:"question"`
	Scope    *SiteSearchScope `json:"scope"`
	Context  *struct {
		SiteSpaceID string `json:"siteSpaceId"`
		Goal        string `json:"goal"`
	} `json:"context"`
}

// Validate checks the question, the context's goal, then the scope.
func (b *StreamAskInSite) Validate() error {
	if err := quire.CheckQuery("question", b.Question, MaxSiteSearchQuery); err != nil {
		return err
	}
	if b.Scope == nil {
		return quire.Errorf(quire.CodeInvalid, "scope: is required")
	}
	if b.Context != nil {
		if err := quire.CheckLen("context.goal", b.Context.Goal, 0, 1024); err != nil {
			return err
		}
	}
	return b.Scope.check("scope")
}

// SearchAIQuery is the body of POST O/ask, the reference's SearchAIQuery,
// within the bounds of the asker the caller sets.
type SearchAIQuery struct {
	Query           string   `json:"query"`
	PreviousQueries []string `json:"previousQueries"`

	MaxQuestion int `json:"-"` // characters of a question (ask.MaxQuestion)
	MaxPrevious int `json:"-"` // questions asked before (ask.MaxPrevious)
}

// Validate checks the query, then the queries asked before it.
func (b *SearchAIQuery) Validate() error {
	if err := quire.CheckQuery("query", b.Query, b.MaxQuestion); err != nil {
		return err
	}
	if len(b.PreviousQueries) > b.MaxPrevious {
		return quire.Errorf(quire.CodeInvalid, "previousQueries: must hold at most %d queries", b.MaxPrevious)
	}
	for i, q := range b.PreviousQueries {
		if err := quire.CheckQuery("previousQueries["+strconv.Itoa(i)+"]", q, b.MaxQuestion); err != nil {
			return err
		}
	}
	return nil
}
