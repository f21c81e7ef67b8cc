package app

import (
	"encoding/json"
	"errors"
	"html"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store/storetest"
)

// TestErrorStatuses: the app answers every error by the one status table
// (quire.HTTPStatus), as page and as the editor's JSON, with the error's
// message; a 500 tells nothing of its cause. Codes the app's own table
// left out (405, 412, 415, 429, 502) were answered 500 before.
func TestErrorStatuses(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t)
	s, err := New(db, Config{PublicURL: "http://quire.test", Author: &authoring.Author{DB: db}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		err     error
		status  int
		message string
	}{
		{"invalid", quire.Errorf(quire.CodeInvalid, "title: must be 1 to 64 characters"), 400, "title: must be 1 to 64 characters"},
		{"forbidden", quire.Errorf(quire.CodeForbidden, "only admins may"), 403, "only admins may"},
		{"not found", quire.Errorf(quire.CodeNotFound, "page not found"), 404, "page not found"},
		{"method", quire.Errorf(quire.CodeMethodNotAllowed, "method DELETE is not allowed here"), 405, "method DELETE is not allowed here"},
		{"conflict", quire.Errorf(quire.CodeConflict, "the pages conflict"), 409, "the pages conflict"},
		{"precondition", quire.Errorf(quire.CodePreconditionFailed, "a font keeps a regular face"), 412, "a font keeps a regular face"},
		{"too large", quire.Errorf(quire.CodeTooLarge, "file: at most 1 MiB"), 413, "file: at most 1 MiB"},
		{"type", quire.Errorf(quire.CodeUnsupportedType, "body: must be JSON"), 415, "body: must be JSON"},
		{"too many", quire.Errorf(quire.CodeTooManyRequests, "3 imports are running"), 429, "3 imports are running"},
		{"bad gateway", quire.Errorf(quire.CodeBadGateway, "domain: the DNS lookup failed"), 502, "domain: the DNS lookup failed"},
		{"internal", &quire.Error{Code: quire.CodeInternal, Message: "disk full", Err: errors.New("disk full")}, 500, somethingWrong},
		{"not ours", errors.New("disk full"), 500, somethingWrong},
	} {
		r := httptest.NewRequest("POST", "/s/space/edit", nil)
		page := httptest.NewRecorder()
		s.writeError(page, r, tc.err)
		if msg := pageMessage(page.Body.String()); page.Code != tc.status || msg != tc.message {
			t.Errorf("%s: page %d %q, want %d %q", tc.name, page.Code, msg, tc.status, tc.message)
		}
		js := httptest.NewRecorder()
		if err := s.jsonError(js, r, tc.err, nil); err != nil {
			t.Fatal(err)
		}
		var got struct{ Error string }
		if err := json.Unmarshal(js.Body.Bytes(), &got); err != nil || js.Code != tc.status || got.Error != tc.message {
			t.Errorf("%s: JSON %d %s, want %d %q", tc.name, js.Code, js.Body, tc.status, tc.message)
		}
	}
}

// pageMessage is the message of an error page.
func pageMessage(body string) string {
	_, after, _ := strings.Cut(body, "</h1>")
	after = strings.TrimSpace(after)
	after, _ = strings.CutPrefix(after, "<p>")
	msg, _, _ := strings.Cut(after, "</p>")
	return html.UnescapeString(msg)
}
