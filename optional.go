package quire

import (
	"bytes"
	"encoding/json"
)

// Optional tells apart a field that was absent, null, or given a value, as
// PATCH bodies need.
type Optional[T any] struct {
	Set   bool // the field was present, possibly null
	Null  bool // the field was null
	Value T
}

// UnmarshalJSON records presence; it is only called for present fields.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	o.Set = true
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// HasValue reports whether a non-null value was given.
func (o Optional[T]) HasValue() bool { return o.Set && !o.Null }

// CheckOptional validates a PATCH string field that may be absent (nil) but
// not null, with check for a given value.
func CheckOptional(field string, o Optional[string], check func(string) error) (*string, error) {
	if !o.Set {
		return nil, nil
	}
	if o.Null {
		return nil, Errorf(CodeInvalid, "%s: must be a string", field)
	}
	if err := check(o.Value); err != nil {
		return nil, err
	}
	return &o.Value, nil
}
