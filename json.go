package quire

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
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

// CheckUTF8 refuses a JSON text holding bytes that are not UTF-8, or a
// \u escape of half a surrogate pair: encoding/json would decode both into
// U+FFFD, so text would be stored other than it was sent.
func CheckUTF8(data []byte) error {
	if !utf8.Valid(data) {
		return Errorf(CodeInvalid, "body: must be valid UTF-8 at offset %d", invalidUTF8At(data))
	}
	for i := 0; i+1 < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		i++ // the escaped character: a backslash escapes one, never two
		r := escapedRune(data[i:])
		if !utf16.IsSurrogate(r) {
			continue
		}
		if r >= 0xDC00 || !startsLowSurrogate(data[i+5:]) {
			return Errorf(CodeInvalid, "body: must be valid UTF-8: half a surrogate pair at offset %d", i-1)
		}
		i += 10 // to the pair's second escape's last digit
	}
	return nil
}

// startsLowSurrogate reports whether b starts with the \u escape of the
// second half of a surrogate pair.
func startsLowSurrogate(b []byte) bool {
	if len(b) == 0 || b[0] != '\\' {
		return false
	}
	r := escapedRune(b[1:])
	return 0xDC00 <= r && r <= 0xDFFF
}

// escapedRune is the code point of a \u escape that starts b after its
// backslash ("u" and four hex digits), or -1 when b starts none.
func escapedRune(b []byte) rune {
	if len(b) < 5 || b[0] != 'u' {
		return -1
	}
	n, err := strconv.ParseUint(string(b[1:5]), 16, 16)
	if err != nil {
		return -1
	}
	return rune(n)
}

// invalidUTF8At is the offset of the first byte of data that is not UTF-8.
func invalidUTF8At(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
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
