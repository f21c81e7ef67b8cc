package api

// Wire shapes: what clients see. They follow the contract and the reference
// schemas; domain types stay free of presentation.

// url is the API address of path.
func (s *Server) url(path string) string { return s.wire.API(path) }
