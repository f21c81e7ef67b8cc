package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/web"
)

// writeError writes every error response: {"error":{"code":…,"message":…}}.
// A 500 logs its cause with the request id and tells the client only
// "internal error".
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := quire.ErrorStatus(err)
	if status == http.StatusInternalServerError {
		s.log.ErrorContext(r.Context(), "internal error", "request_id", requestID(r.Context()), "err", err)
	}
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="quire"`)
	}
	if werr := web.WriteJSONError(w, status, quire.ErrorMessage(err)); werr != nil {
		s.log.DebugContext(r.Context(), "write error response", "err", werr)
	}
}

// errorf is a shorthand for handlers.
func errorf(code quire.Code, format string, args ...any) error {
	return quire.Errorf(code, format, args...)
}
