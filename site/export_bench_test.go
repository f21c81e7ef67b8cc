package site

import "github.com/quiredocs/quire/internal/lru"

// ForgetRendered empties s's cache of rendered answers, so that the next
// request renders its page: the benchmarks' "uncached render". Not safe
// while s serves requests.
func ForgetRendered(s *Server) {
	s.answers = lru.New[string, *cachedAnswer]("site.answers") // as New makes it
}
