package site

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store/storetest"
)

// TestErrorStatuses: the sites answer every error by the one status table
// (quire.HTTPStatus), as a page and as the JSON of search and ask. Pages
// keep their own words for 401, 404 and 500 and show the error's message
// otherwise; before, every page error but 401 and 404 was a 500, and the
// JSON endpoints knew six codes.
func TestErrorStatuses(t *testing.T) {
	t.Parallel()
	s := New(storetest.Open(t), Config{})
	const notFound, wrong = "There is no page here. It may have moved, or the link may be mistyped.",
		"Something went wrong on our side. Please try again in a moment."
	for _, tc := range []struct {
		name              string
		err               error
		status            int
		title, page, json string // the page's title and message, and the JSON's message
	}{
		{"invalid", quire.Errorf(quire.CodeInvalid, "q: is required"), 400, "Bad request", "q: is required", "q: is required"},
		{"unauthorized", quire.Errorf(quire.CodeUnauthorized, "sign-in needed"), 401, "Sign-in needed", "This site is private: sign in to read it.", "sign-in needed"},
		{"forbidden", quire.Errorf(quire.CodeForbidden, "not for you"), 403, "Forbidden", "not for you", "not for you"},
		{"not found", fmt.Errorf("read: %w", errNotFound), 404, "Page not found", notFound, "page not found"},
		{"method", quire.Errorf(quire.CodeMethodNotAllowed, "method not allowed"), 405, "Method not allowed", "method not allowed", "method not allowed"},
		{"conflict", quire.Errorf(quire.CodeConflict, "moved meanwhile"), 409, "Conflict", "moved meanwhile", "moved meanwhile"},
		{"too large", quire.Errorf(quire.CodeTooLarge, "body: too large"), 413, "Request entity too large", "body: too large", "body: too large"},
		{"too many", quire.Errorf(quire.CodeTooManyRequests, "slow down"), 429, "Too many requests", "slow down", "slow down"},
		{"bad gateway", quire.Errorf(quire.CodeBadGateway, "the answering model failed"), 502, "Bad gateway", "the answering model failed", "the answering model failed"},
		{"not ours", errors.New("disk full"), 500, "Something went wrong", wrong, "internal error"},
	} {
		r := httptest.NewRequest("GET", "/sites/site/guide", nil)
		page := httptest.NewRecorder()
		s.fail(page, r, nil, tc.err)
		body := page.Body.String()
		if page.Code != tc.status || !strings.Contains(body, "<title>"+tc.title) || !strings.Contains(html.UnescapeString(body), "<p>"+tc.page+"</p>") {
			t.Errorf("%s: page %d, want %d titled %q saying %q:\n%s", tc.name, page.Code, tc.status, tc.title, tc.page, body)
		}
		js := httptest.NewRecorder()
		s.failJSON(js, r, tc.err)
		var got struct {
			Error struct {
				Code    int
				Message string
			}
		}
		if err := json.Unmarshal(js.Body.Bytes(), &got); err != nil || js.Code != tc.status || got.Error.Code != tc.status || got.Error.Message != tc.json {
			t.Errorf("%s: JSON %d %s, want %d %q", tc.name, js.Code, js.Body, tc.status, tc.json)
		}
	}
}

// TestErrorJSONTimeout: work that ran out of its time is 503, to try again;
// a client that left is answered nothing.
func TestErrorJSONTimeout(t *testing.T) {
	t.Parallel()
	s := New(storetest.Open(t), Config{})
	late := httptest.NewRecorder()
	s.failJSON(late, httptest.NewRequest("GET", "/sites/site/~search?q=x", nil), fmt.Errorf("search: %w", context.DeadlineExceeded))
	if late.Code != http.StatusServiceUnavailable || late.Header().Get("Retry-After") != "1" {
		t.Errorf("timed out: %d, Retry-After %q; want 503, 1", late.Code, late.Header().Get("Retry-After"))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	gone := httptest.NewRecorder()
	s.failJSON(gone, httptest.NewRequest("GET", "/sites/site/~search?q=x", nil).WithContext(ctx), context.Canceled)
	if gone.Body.Len() != 0 {
		t.Errorf("client gone: answered %d %s", gone.Code, gone.Body)
	}
}
