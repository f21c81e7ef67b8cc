// Package jsonappend appends JSON values to byte slices by hand, byte for
// byte as encoding/json writes them: for answers too large to encode by
// reflection (a page of comments holds hundreds of users).
package jsonappend

import (
	"time"
	"unicode/utf8"
)

// TimeLayout is how timestamps are written: ISO 8601 in UTC with
// milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Each appends n items, comma separated, each appended by item.
func Each(b []byte, n int, item func(b []byte, i int) []byte) []byte {
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = item(b, i)
	}
	return b
}

// Time appends t in UTC as a JSON string in TimeLayout, without parsing
// the layout each time: lists write hundreds of times.
func Time(b []byte, t time.Time) []byte {
	t = t.UTC()
	year, month, day := t.Date()
	hour, minute, sec := t.Clock()
	if year < 0 || year > 9999 {
		return append(append(append(b, '"'), t.Format(TimeLayout)...), '"')
	}
	b = append(b, '"')
	b = appendDigits(b, year, 4)
	b = appendDigits(append(b, '-'), int(month), 2)
	b = appendDigits(append(b, '-'), day, 2)
	b = appendDigits(append(b, 'T'), hour, 2)
	b = appendDigits(append(b, ':'), minute, 2)
	b = appendDigits(append(b, ':'), sec, 2)
	b = appendDigits(append(b, '.'), t.Nanosecond()/1e6, 3)
	return append(b, 'Z', '"')
}

// appendDigits appends n, 0 ≤ n < 10^width, in exactly width digits.
func appendDigits(b []byte, n, width int) []byte {
	for i := width - 1; i >= 0; i-- {
		b = append(b, 0)
	}
	for i := len(b) - 1; i >= len(b)-width; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return b
}

// String appends s as a JSON string, escaped as encoding/json does:
// quotes, backslashes, control characters, <, > and & (for HTML), U+2028
// and U+2029, and invalid UTF-8 as U+FFFD.
func String(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
