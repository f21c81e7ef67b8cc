package api_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scenario is one request through the real router (so the contract check
// applies) and what must come back, in the spirit of PocketBase's
// tests.ApiScenario. Tables are built where the fixture is known; a step that
// needs an earlier answer decodes it with into and goes in the next table.
type scenario struct {
	name   string // defaults to "METHOD path"
	as     user   // the caller; the zero user sends no token
	method string // GET unless set
	path   string
	body   any                // as env.call takes it
	status int                // 200 unless set
	errs   []string           // for a status of 400 or more: parts of the error message
	want   []check            // further checks of the response, in order
	before func(t *testing.T) // runs before the request
}

// anonymous is a caller without a token.
var anonymous = user{id: "anonymous", email: "anonymous"}

// check is one assertion on a response.
type check func(t testing.TB, r *response)

// run plays the scenarios in order, each in its own subtest. Every scenario
// runs; if any failed, run stops the test, since later steps usually build
// on earlier ones.
func run(t *testing.T, e *env, scenarios []scenario) {
	t.Helper()
	failed := false
	for _, s := range scenarios {
		method, status, name := s.method, s.status, s.name
		if method == "" {
			method = http.MethodGet
		}
		if status == 0 {
			status = http.StatusOK
		}
		if name == "" {
			name = method + " " + s.path
			if s.as != (user{}) {
				name += " as " + s.as.email
			}
		}
		ok := t.Run(name, func(t *testing.T) {
			if s.before != nil {
				s.before(t)
			}
			caller := s.as
			if caller == (user{}) {
				caller = e.admin
			}
			res := e.call(t, caller.token, method, s.path, s.body)
			if status >= 400 {
				res.wantError(t, status, s.errs...)
			} else {
				res.want(t, status)
			}
			for _, c := range s.want {
				c(t, res)
			}
		})
		failed = failed || !ok
	}
	if failed {
		t.FailNow()
	}
}

// field wants the JSON value at path (see lookup) to equal want, compared as
// JSON: want is encoded and decoded first, so 2 matches 2.0 and []string
// matches []any.
func field(path string, want any) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		got, ok := lookup(t, r, path)
		if !ok {
			t.Errorf("%s: no such field in %s", path, r.Body)
			return
		}
		raw, err := json.Marshal(want)
		if err != nil {
			t.Fatalf("encode %v: %v", want, err)
		}
		var w any
		if err := json.Unmarshal(raw, &w); err != nil {
			t.Fatalf("decode %s: %v", raw, err)
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
}

// zero wants, at each path, no value, null, false, 0, "" or [], what a
// decode leaves as Go's zero value or an empty slice.
func zero(paths ...string) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		for _, p := range paths {
			if got, ok := lookup(t, r, p); ok && !isZero(got) {
				t.Errorf("%s = %v, want it empty", p, got)
			}
		}
	}
}

// nonzero wants, at each path, a value that zero would refuse.
func nonzero(paths ...string) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		for _, p := range paths {
			if got, ok := lookup(t, r, p); !ok || isZero(got) {
				t.Errorf("%s = %v, want a value", p, got)
			}
		}
	}
}

func isZero(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	}
	return false
}

// absent wants no JSON value at path.
func absent(path string) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		if got, ok := lookup(t, r, path); ok {
			t.Errorf("%s = %v, want it absent", path, got)
		}
	}
}

// into decodes the body into v, zeroed first, for later steps and checks.
func into(v any) check {
	return func(t testing.TB, r *response) {
		t.Helper()
		reflect.ValueOf(v).Elem().SetZero()
		r.Decode(t, v)
	}
}

// lookup finds a value in the JSON body by a dotted path: object keys, array
// indexes, and "#" for every element of an array ("items.#.id" lists ids).
func lookup(t testing.TB, r *response, path string) (any, bool) {
	t.Helper()
	var v any
	if err := json.Unmarshal(r.Body, &v); err != nil {
		t.Fatalf("decode body %q: %v", r.Body, err)
	}
	return walkJSON(v, strings.Split(path, "."))
}

func walkJSON(v any, segs []string) (any, bool) {
	if len(segs) == 0 || segs[0] == "" {
		return v, true
	}
	switch v := v.(type) {
	case map[string]any:
		c, ok := v[segs[0]]
		if !ok {
			return nil, false
		}
		return walkJSON(c, segs[1:])
	case []any:
		if segs[0] == "#" {
			out := []any{}
			for _, c := range v {
				if x, ok := walkJSON(c, segs[1:]); ok {
					out = append(out, x)
				}
			}
			return out, true
		}
		if i, err := strconv.Atoi(segs[0]); err == nil && i >= 0 && i < len(v) {
			return walkJSON(v[i], segs[1:])
		}
	}
	return nil, false
}
