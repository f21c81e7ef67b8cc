package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
)

// fuzzBody has a field of each kind request bodies use.
type fuzzBody struct {
	Title   string                   `json:"title"`
	Count   int                      `json:"count"`
	Flag    bool                     `json:"flag"`
	Tags    []string                 `json:"tags"`
	Role    quire.Optional[string]   `json:"role"`
	Limit   quire.Optional[int]      `json:"limit"`
	Domains quire.Optional[[]string] `json:"domains"`
	Nested  struct {
		Name string `json:"name"`
	} `json:"nested"`
}

// fuzzFields are the paths a 400 may name for fuzzBody.
var fuzzFields = []string{"title", "count", "flag", "tags", "role", "limit", "domains", "nested", "nested.name"}

func seedJSON(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `null`, `[]`, `"x"`, `1`, `{`, `{"title":`, `{"title":"a"}`, `{"title":1}`,
		`{"count":1.5}`, `{"count":1e400}`, `{"count":"1"}`, `{"count":-9223372036854775809}`,
		`{"flag":"true"}`, `{"tags":["a",1]}`, `{"tags":"a"}`, `{"role":null}`, `{"role":"admin"}`,
		`{"role":7}`, `{"limit":"x"}`, `{"limit":null}`, `{"domains":[1]}`, `{"domains":null}`,
		`{"nested":{"name":2}}`, `{"nested":[]}`, `{"unknown":{"deep":[1,2,{}]}}`, `{"title":"a","title":2}`,
		`{"title":"\ud800"}`, "{\"title\":\"\xff\"}", `{"a":1}{"b":2}`, `{"title":"a"} `, `{"TITLE":3}`,
	} {
		f.Add([]byte(s))
	}
}

// FuzzDecodeJSON: decodeJSON never panics; its errors are 400s; a valid
// JSON object either decodes or gets a 400 that names the field at fault, and
// any other valid JSON value is refused as not an object.
func FuzzDecodeJSON(f *testing.F) {
	seedJSON(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		var dst fuzzBody
		err := decodeJSON(body, &dst)
		if err == nil {
			return
		}
		qe, ok := err.(*quire.Error)
		if !ok || qe.Code != quire.CodeInvalid {
			t.Fatalf("decodeJSON(%q) = %#v, want a *quire.Error with code %q", body, err, quire.CodeInvalid)
		}
		if !json.Valid(body) {
			return
		}
		if trimmed := bytes.TrimSpace(body); trimmed[0] != '{' {
			// Any other JSON value but null is of the wrong type for a struct.
			if qe.Message != "body: must be an object" {
				t.Fatalf("decodeJSON(%q) = %q, want %q", body, qe.Message, "body: must be an object")
			}
		} else if !namesField(qe.Message) {
			t.Fatalf("decodeJSON(%q): valid object refused with %q, which names no field", body, qe.Message)
		}
	})
}

func namesField(msg string) bool {
	for _, f := range fuzzFields {
		if strings.HasPrefix(msg, f+": ") {
			return true
		}
	}
	return false
}

// FuzzReadJSON: readJSON never panics and answers only 400, 413 or 415.
func FuzzReadJSON(f *testing.F) {
	for _, ct := range []string{"application/json", "", "text/plain", "application/merge-patch+json", "application/json; charset=utf-8", "application/json; charset", ";;"} {
		f.Add([]byte(`{"title":"a"}`), ct)
		f.Add([]byte(`{"count":"x"}`), ct)
	}
	f.Add([]byte(""), "text/plain")
	f.Fuzz(func(t *testing.T, body []byte, contentType string) {
		r := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		if contentType != "" {
			r.Header.Set("Content-Type", contentType)
		}
		var dst fuzzBody
		err := readJSON(httptest.NewRecorder(), r, &dst)
		if err == nil {
			return
		}
		qe, ok := err.(*quire.Error)
		if !ok {
			t.Fatalf("readJSON(%q, %q) = %#v, want a *quire.Error", body, contentType, err)
		}
		switch qe.Code {
		case quire.CodeInvalid, quire.CodeTooLarge, quire.CodeUnsupportedType:
		default:
			t.Fatalf("readJSON(%q, %q): code %q", body, contentType, qe.Code)
		}
	})
}

// TestReadJSONTooLarge: a body over MaxBodyBytes is a 413, found before
// anything is decoded.
func TestReadJSONTooLarge(t *testing.T) {
	body := `{"title":"` + strings.Repeat("a", MaxBodyBytes) + `"}`
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	var dst fuzzBody
	if err := readJSON(httptest.NewRecorder(), r, &dst); quire.ErrorCode(err) != quire.CodeTooLarge {
		t.Fatalf("readJSON of %d bytes = %v, want code %q", len(body), err, quire.CodeTooLarge)
	}
}
