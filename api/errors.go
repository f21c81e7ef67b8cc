package api

import (
	"net/http"

	"github.com/quiredocs/quire"
)

// statusOf maps each error code to its one HTTP status.
var statusOf = map[quire.Code]int{
	quire.CodeInvalid:            http.StatusBadRequest,
	quire.CodeUnauthorized:       http.StatusUnauthorized,
	quire.CodeForbidden:          http.StatusForbidden,
	quire.CodeNotFound:           http.StatusNotFound,
	quire.CodeMethodNotAllowed:   http.StatusMethodNotAllowed,
	quire.CodeConflict:           http.StatusConflict,
	quire.CodePreconditionFailed: http.StatusPreconditionFailed,
	quire.CodeTooLarge:           http.StatusRequestEntityTooLarge,
	quire.CodeTooManyRequests:    http.StatusTooManyRequests,
	quire.CodeBadGateway:         http.StatusBadGateway,
	quire.CodeUnsupportedType:    http.StatusUnsupportedMediaType,
	quire.CodeInternal:           http.StatusInternalServerError,
}

// statusFor is the status of err's code; 500 for anything not an *Error.
func statusFor(err error) int {
	if status, ok := statusOf[quire.ErrorCode(err)]; ok {
		return status
	}
	return http.StatusInternalServerError
}

type errorBody struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError writes every error response: {"error":{"code":…,"message":…}}.
// A 500 logs its cause with the request id and tells the client only
// "internal error".
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := statusFor(err)
	if status == http.StatusInternalServerError {
		s.log.ErrorContext(r.Context(), "internal error", "request_id", requestID(r.Context()), "err", err)
	}
	var body errorBody
	body.Error.Code = status
	body.Error.Message = quire.ErrorMessage(err)
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="quire"`)
	}
	if werr := writeJSON(w, status, body); werr != nil {
		s.log.DebugContext(r.Context(), "write error response", "err", werr)
	}
}

// errorf is a shorthand for handlers.
func errorf(code quire.Code, format string, args ...any) error {
	return quire.Errorf(code, format, args...)
}
