package site

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/internal/ratelimit"
)

// allowRate counts a request of r's client address against the sites'
// rate limit, and those to an Ask endpoint against the Ask limit too; over
// either, it answers 429 with Retry-After, as JSON to Ask and as a page to
// the rest, and reports false. Assets (scripts, styles, fonts) are not
// counted: a page needs several.
func (s *Server) allowRate(w http.ResponseWriter, r *http.Request) bool {
	if strings.Contains(r.URL.Path, "/~assets/") {
		return true
	}
	key := ""
	for _, rl := range []struct {
		rate   ratelimit.Rate
		prefix string
	}{{s.cfg.RateLimit, ""}, {s.cfg.AskRateLimit, "ask:"}} {
		if !rl.rate.On() || (rl.prefix != "" && !isAsk(r)) {
			continue
		}
		if key == "" {
			key = ratelimit.ClientKey(r)
		}
		d := s.cfg.Limiter.Take(rl.prefix+key, rl.rate)
		if d.SetHeaders(w.Header(), s.cfg.Limiter.Clock()) {
			continue
		}
		err := quire.Errorf(quire.CodeTooManyRequests, "Too many requests from your address: please wait a moment and try again.")
		if isAsk(r) {
			s.failJSON(w, r, err)
		} else {
			s.fail(w, r, nil, err)
		}
		return false
	}
	return true
}

// isAsk reports whether r asks a site's Ask endpoint.
func isAsk(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/~ask") }
