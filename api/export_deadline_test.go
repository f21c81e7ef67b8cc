package api

import "time"

// SetTimeouts sets how long request bodies may take to arrive and answers
// to be taken (deadline.go); for tests, before the server serves.
func (s *Server) SetTimeouts(read, write time.Duration) { s.readTimeout, s.writeTimeout = read, write }
