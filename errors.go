// Package quire holds Quire's domain types, roles and permission rules, error
// codes and field checks. It does no I/O and imports nothing of ours.
package quire

import (
	"errors"
	"fmt"
	"net/http"
)

// Code classifies an error; each code has one HTTP status (HTTPStatus).
type Code string

// Error codes. Anything that is not an *Error is internal.
const (
	CodeInvalid            Code = "invalid"             // 400: the message names the field and the rule
	CodeUnauthorized       Code = "unauthorized"        // 401: no or bad token
	CodeForbidden          Code = "forbidden"           // 403: can see it, may not act
	CodeNotFound           Code = "not_found"           // 404: missing, or not visible to the caller
	CodeMethodNotAllowed   Code = "method_not_allowed"  // 405
	CodeConflict           Code = "conflict"            // 409
	CodePreconditionFailed Code = "precondition_failed" // 412: as the reference answers some invalid bodies
	CodeTooLarge           Code = "too_large"           // 413
	CodeUnsupportedType    Code = "unsupported_type"    // 415
	CodeTooManyRequests    Code = "too_many_requests"   // 429
	CodeInternal           Code = "internal"            // 500
	CodeBadGateway         Code = "bad_gateway"         // 502: a service Quire relies on failed
)

// statuses is the one table from error codes to HTTP statuses, by which
// the API, the app and the published sites answer errors.
var statuses = map[Code]int{
	CodeInvalid:            http.StatusBadRequest,
	CodeUnauthorized:       http.StatusUnauthorized,
	CodeForbidden:          http.StatusForbidden,
	CodeNotFound:           http.StatusNotFound,
	CodeMethodNotAllowed:   http.StatusMethodNotAllowed,
	CodeConflict:           http.StatusConflict,
	CodePreconditionFailed: http.StatusPreconditionFailed,
	CodeTooLarge:           http.StatusRequestEntityTooLarge,
	CodeUnsupportedType:    http.StatusUnsupportedMediaType,
	CodeTooManyRequests:    http.StatusTooManyRequests,
	CodeInternal:           http.StatusInternalServerError,
	CodeBadGateway:         http.StatusBadGateway,
}

// HTTPStatus is the HTTP status of code; 500 for a code it does not know.
func HTTPStatus(code Code) int {
	if status, ok := statuses[code]; ok {
		return status
	}
	return http.StatusInternalServerError
}

// ErrorStatus is the HTTP status err is answered with: that of its code
// (ErrorCode), so 500 for anything that is not an *Error.
func ErrorStatus(err error) int { return HTTPStatus(ErrorCode(err)) }

// Error is the one domain error. Message is shown to clients; Err, the cause,
// only to the log.
type Error struct {
	Code    Code
	Message string
	Err     error
}

func (e *Error) Error() string {
	if e.Err != nil {
		return e.Message + ": " + e.Err.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted client message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, CodeInternal
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) Code {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the client message of err: the *Error's message, or
// "internal error" for anything else.
func ErrorMessage(err error) string {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Message
	}
	return "internal error"
}
