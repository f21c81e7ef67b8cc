package api

import "time"

// SetKeepAlive sets how often the server's quiet event streams say they
// are alive; for tests, before the server serves.
func (s *Server) SetKeepAlive(d time.Duration) { s.keepAlive = d }
