package quire_test

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/quiredocs/quire"
)

// TestHTTPStatus: each code has its one status; anything else is 500.
func TestHTTPStatus(t *testing.T) {
	for _, tc := range []struct {
		code quire.Code
		want int
	}{
		{quire.CodeInvalid, http.StatusBadRequest},
		{quire.CodeUnauthorized, http.StatusUnauthorized},
		{quire.CodeForbidden, http.StatusForbidden},
		{quire.CodeNotFound, http.StatusNotFound},
		{quire.CodeMethodNotAllowed, http.StatusMethodNotAllowed},
		{quire.CodeConflict, http.StatusConflict},
		{quire.CodePreconditionFailed, http.StatusPreconditionFailed},
		{quire.CodeTooLarge, http.StatusRequestEntityTooLarge},
		{quire.CodeUnsupportedType, http.StatusUnsupportedMediaType},
		{quire.CodeTooManyRequests, http.StatusTooManyRequests},
		{quire.CodeInternal, http.StatusInternalServerError},
		{quire.CodeBadGateway, http.StatusBadGateway},
		{"", http.StatusInternalServerError},
		{"no_such_code", http.StatusInternalServerError},
	} {
		if got := quire.HTTPStatus(tc.code); got != tc.want {
			t.Errorf("HTTPStatus(%q) = %d, want %d", tc.code, got, tc.want)
		}
	}
}

// TestErrorStatus: an error's status is its code's, found through any
// wrapping; an error that is not an *Error is 500.
func TestErrorStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"domain error", quire.Errorf(quire.CodeTooManyRequests, "slow down"), http.StatusTooManyRequests},
		{"wrapped", fmt.Errorf("merge: %w", quire.Errorf(quire.CodeConflict, "pages conflict")), http.StatusConflict},
		{"other error", errors.New("disk full"), http.StatusInternalServerError},
		{"nil", nil, http.StatusInternalServerError},
	} {
		if got := quire.ErrorStatus(tc.err); got != tc.want {
			t.Errorf("%s: ErrorStatus = %d, want %d", tc.name, got, tc.want)
		}
	}
}
