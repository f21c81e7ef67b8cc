package api

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/web"
)

// MaxBodyBytes bounds every request body.
const MaxBodyBytes = 1 << 20

// writeCreated answers 201 Created with v, which is at location.
func writeCreated(w http.ResponseWriter, location string, v any) error {
	w.Header().Set("Location", location)
	return writeJSON(w, http.StatusCreated, v)
}

// writeJSON writes v with status.
func writeJSON(w http.ResponseWriter, status int, v any) error { return web.WriteJSON(w, status, v) }

// noContent answers 204 with no body.
func noContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// readJSON decodes the request body into dst: 415 unless JSON, 413 over
// MaxBodyBytes, 400 for malformed JSON (with the offset) or a wrong type
// (naming the field). Unknown fields are ignored. An empty body leaves dst as
// it is, so optional bodies may be left out; validation catches what is required.
func readJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := readBody(w, r, MaxBodyBytes)
	if err != nil || body == nil {
		return err
	}
	return decodeJSON(body, dst)
}

// readBody reads a JSON request body of at most limit bytes; nil when empty.
// Every body is UTF-8 (quire.CheckUTF8), so no text is stored as U+FFFD.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	body, err := readAll(http.MaxBytesReader(w, r.Body, limit), min(r.ContentLength, limit))
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, errorf(quire.CodeTooLarge, "body: must be at most %d bytes", limit)
		}
		return nil, errorf(quire.CodeInvalid, "body: could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 { // bytes: a string would copy the body
		return nil, nil
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return nil, errorf(quire.CodeUnsupportedType, "body: Content-Type must be application/json")
		}
	} else {
		return nil, errorf(quire.CodeUnsupportedType, "body: Content-Type must be application/json")
	}
	return body, quire.CheckUTF8(body)
}

// readAll is io.ReadAll into a buffer of the size the request gives: one
// grown step by step allocated twice a body's length, and held half as much
// again while it grew.
func readAll(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, size)
	n, err := io.ReadFull(r, b)
	if err == io.EOF || err == io.ErrUnexpectedEOF { // shorter than it said
		return b[:n], nil
	} else if err != nil {
		return nil, err
	}
	rest, err := io.ReadAll(r) // nothing, or past the limit
	return append(b, rest...), err
}

// decodeJSON unmarshals one JSON value, turning decoder errors into 400s that
// name the place at fault (quire.DecodeJSON).
func decodeJSON(body []byte, dst any) error { return quire.DecodeJSON(body, dst) }

// validator is a request body that checks itself: each request type's
// Validate (wire's request types) names the field and the rule it breaks.
type validator interface{ Validate() error }

// readRequest reads the body into dst, as readJSON does, and validates it.
func readRequest(w http.ResponseWriter, r *http.Request, dst validator) error {
	return readRequestLimit(w, r, MaxBodyBytes, dst)
}

// readRequestLimit is readRequest for bodies of at most limit bytes, which
// may be more than MaxBodyBytes (an API specification, an integration).
func readRequestLimit(w http.ResponseWriter, r *http.Request, limit int64, dst validator) error {
	body, err := readBody(w, r, limit)
	if err != nil {
		return err
	}
	if body != nil {
		if err := decodeJSON(body, dst); err != nil {
			return err
		}
	}
	return dst.Validate()
}
