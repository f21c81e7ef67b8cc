package quire

import (
	"fmt"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CheckLen validates that v is one line of min to max characters: valid
// UTF-8 without control characters (CheckChars). Titles, labels, names,
// slugs and the like.
func CheckLen(field, v string, min, max int) error {
	if err := CheckChars(field, v, false); err != nil {
		return err
	}
	return checkCount(field, v, min, max)
}

// CheckText validates that v is text of min to max characters that may span
// lines: like CheckLen, but tabs and line breaks are allowed. Descriptions,
// markdown and the like.
func CheckText(field, v string, min, max int) error {
	if err := CheckChars(field, v, true); err != nil {
		return err
	}
	return checkCount(field, v, min, max)
}

// CheckChars validates that v is valid UTF-8 without control characters
// (C0, DEL and C1: unicode.IsControl), which no one means to type and which
// PostgreSQL cannot store (NUL). Multi-line text may hold tabs, line feeds
// and carriage returns. One line (a title, a name) may not hold the
// characters that override or isolate the direction of text: they make a
// name read as another ("invoice\u202Efdp.exe") wherever it is shown,
// while prose in mixed scripts keeps them.
func CheckChars(field, v string, multiline bool) error {
	for i, r := range v {
		if r == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(v[i:]); n == 1 {
				return Errorf(CodeInvalid, "%s: must be valid UTF-8", field)
			}
		}
		if unicode.IsControl(r) && !(multiline && (r == '\t' || r == '\n' || r == '\r')) {
			return Errorf(CodeInvalid, "%s: must not contain control characters", field)
		}
		if !multiline && isBidiControl(r) {
			return Errorf(CodeInvalid, "%s: must not contain characters that override the direction of text (U+%04X)", field, r)
		}
	}
	return nil
}

// isBidiControl reports the embedding and override characters U+202A to
// U+202E and the isolates U+2066 to U+2069.
func isBidiControl(r rune) bool {
	return '\u202A' <= r && r <= '\u202E' || '\u2066' <= r && r <= '\u2069'
}

// CheckStrings applies CheckChars, line breaks allowed, to every string of
// a decoded JSON value (object keys too), naming the one at fault by its
// path from field, such as instructions.nodes[0].text.
func CheckStrings(field string, v any) error {
	switch v := v.(type) {
	case string:
		return CheckChars(field, v, true)
	case []any:
		for i, e := range v {
			if err := CheckStrings(fmt.Sprintf("%s[%d]", field, i), e); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, e := range v {
			if err := CheckChars(field, k, false); err != nil {
				return err
			}
			if err := CheckStrings(field+"."+k, e); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkCount(field, v string, min, max int) error {
	n := utf8.RuneCountInString(v)
	if n < min || n > max {
		if min == 0 {
			return Errorf(CodeInvalid, "%s: must be at most %d characters", field, max)
		}
		return Errorf(CodeInvalid, "%s: must be %d to %d characters", field, min, max)
	}
	return nil
}

// CheckRequired validates that a required field was given.
func CheckRequired(field string, given bool) error {
	if !given {
		return Errorf(CodeInvalid, "%s: is required", field)
	}
	return nil
}

// CheckQuery validates what someone types to search or to ask: given, and
// at most max characters.
func CheckQuery(field, v string, max int) error {
	if v == "" {
		return Errorf(CodeInvalid, "%s: is required", field)
	}
	if utf8.RuneCountInString(v) > max {
		return Errorf(CodeInvalid, "%s: must be at most %d characters", field, max)
	}
	return nil
}

// CheckEmail validates a bare e-mail address.
func CheckEmail(field, v string) error {
	if err := CheckChars(field, v, false); err != nil {
		return err
	}
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v || len(v) > 254 {
		return Errorf(CodeInvalid, "%s: must be an e-mail address", field)
	}
	return nil
}

// NormalizeEmail is the form under which e-mail addresses are stored and matched.
func NormalizeEmail(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// FirstError returns the first non-nil error, so a validate method reads as a list.
func FirstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
