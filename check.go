package quire

import (
	"net/mail"
	"strings"
	"unicode/utf8"
)

// CheckLen validates that v has min to max characters.
func CheckLen(field, v string, min, max int) error {
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

// CheckEmail validates a bare e-mail address.
func CheckEmail(field, v string) error {
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
