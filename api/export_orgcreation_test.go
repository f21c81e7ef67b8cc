package api

import "time"

// SetOrgCreationClock sets the clock that limits organization creations;
// for tests, before the server serves.
func (s *Server) SetOrgCreationClock(now func() time.Time) { s.orgCreation.now = now }
