package api

// What clients see is package wire's: the answers' shapes, built from domain
// values by s.wire, which knows the server's public URL.

// url is the API address of path.
func (s *Server) url(path string) string { return s.wire.API(path) }
