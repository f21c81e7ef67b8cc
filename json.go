package quire

import (
	"bytes"
	"encoding/json"
	"errors"
)

// DecodeJSON unmarshals one JSON value, turning decoder errors into
// CodeInvalid errors that name the place at fault: "body: malformed JSON at
// offset 7", "title: must be a string". An *Error from an UnmarshalJSON
// method passes through.
func DecodeJSON(data []byte, dst any) error {
	err := json.Unmarshal(data, dst)
	if err == nil {
		return nil
	}
	if e, ok := errors.AsType[*json.SyntaxError](err); ok {
		return Errorf(CodeInvalid, "body: malformed JSON at offset %d", e.Offset)
	}
	if e, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		field := e.Field
		if field == "" {
			return Errorf(CodeInvalid, "body: must be %s", jsonType(e.Type.Kind().String()))
		}
		return Errorf(CodeInvalid, "%s: must be %s", field, jsonType(e.Type.Kind().String()))
	}
	if qe, ok := errors.AsType[*Error](err); ok {
		return qe
	}
	return Errorf(CodeInvalid, "body: malformed JSON")
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "map", "struct":
		return "an object"
	case "int", "int64", "float64", "uint", "int32":
		return "a number"
	}
	return "of another type"
}

// IsNull reports whether a raw JSON field was absent or null.
func IsNull(raw json.RawMessage) bool {
	return raw == nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}
