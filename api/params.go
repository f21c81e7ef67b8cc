package api

import (
	"net/http"
	"net/url"

	"github.com/quiredocs/quire"
)

// optBoolParam reads the optional boolean query parameter name: nil when it is
// absent, and otherwise exactly "true" or "false". Other spellings that
// strconv.ParseBool takes (1, t, TRUE…) and an empty value are 400, so every
// boolean parameter of the API accepts the same two words.
func optBoolParam(r *http.Request, name string) (*bool, error) {
	q := query(r)
	if !q.Has(name) {
		return nil, nil
	}
	var b bool
	switch q.Get(name) {
	case "true":
		b = true
	case "false":
	default:
		return nil, errorf(quire.CodeInvalid, "%s: must be true or false", name)
	}
	return &b, nil
}

// boolParam reads the optional boolean query parameter name, def when it is
// absent; see optBoolParam.
func boolParam(r *http.Request, name string, def bool) (bool, error) {
	b, err := optBoolParam(r, name)
	if err != nil || b == nil {
		return def, err
	}
	return *b, nil
}

// query returns the query parameters of r, parsed once per request: an
// answer reads several. The values are shared: read them, never change them.
func query(r *http.Request) url.Values {
	if r.URL.RawQuery == "" {
		return nil
	}
	info := requestInfoOf(r.Context())
	if info == nil {
		return r.URL.Query()
	}
	if info.query == nil || info.rawQuery != r.URL.RawQuery {
		info.query, info.rawQuery = r.URL.Query(), r.URL.RawQuery
	}
	return info.query
}
