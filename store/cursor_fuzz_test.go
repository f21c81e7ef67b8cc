package store_test

import (
	"testing"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// FuzzDecodeCursor feeds arbitrary page tokens to DecodeCursor: it never
// panics, refuses with a 400, and whatever it accepts re-encodes to a token
// that decodes to the same cursor.
func FuzzDecodeCursor(f *testing.F) {
	for _, c := range []store.Cursor{
		{ID: "abc"},
		{Num: 1732287000000000, ID: "k3j4h5g6f7d8s9a0q1w2"},
		{Num: -1, Str: "ada admin", ID: "x"},
		{Str: "zoë \u2028 <&>", ID: "\x00"},
	} {
		f.Add(c.Encode())
	}
	for _, s := range []string{"", "=", "e30", "eyJpIjoiIn0", "eyJuIjoxLjV9", "eyJpIjoxfQ", "bnVsbA", "W10", "!!!!", "eyJpIjoieCIsIm4iOjFlMTAwfQ"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, page string) {
		c, err := store.DecodeCursor(page)
		if err != nil {
			if quire.ErrorCode(err) != quire.CodeInvalid {
				t.Fatalf("DecodeCursor(%q): error %v has code %q, want %q", page, err, quire.ErrorCode(err), quire.CodeInvalid)
			}
			if c != nil {
				t.Fatalf("DecodeCursor(%q): cursor %+v with error", page, c)
			}
			return
		}
		if c.ID == "" {
			t.Fatalf("DecodeCursor(%q) = %+v: accepted an empty id", page, c)
		}
		again, err := store.DecodeCursor(c.Encode())
		if err != nil {
			t.Fatalf("DecodeCursor(%q) = %+v, which re-encodes to %q that does not decode: %v", page, c, c.Encode(), err)
		}
		if *again != *c {
			t.Fatalf("DecodeCursor(%q) = %+v, re-decoded as %+v", page, c, again)
		}
	})
}

// FuzzCursorRoundTrip checks that every cursor the store can make decodes to
// itself. Encoding goes through JSON, so invalid UTF-8 comes back with each
// bad byte replaced by U+FFFD; sort keys are lower-cased display names (at
// most 100 characters), which must always fit in a page token.
func FuzzCursorRoundTrip(f *testing.F) {
	f.Add(int64(0), "", "a")
	f.Add(int64(1732287000000000), "", "k3j4h5g6f7d8s9a0q1w2")
	f.Add(int64(-9223372036854775808), "ada lovelace", "id")
	f.Add(int64(9223372036854775807), "\xff\xfe<script>\u2028", "\x00\"\\")
	f.Fuzz(func(t *testing.T, num int64, str, id string) {
		c := store.Cursor{Num: num, Str: str, ID: id}
		enc := c.Encode()
		got, err := store.DecodeCursor(enc)
		if id == "" {
			if err == nil {
				t.Fatalf("cursor %+v with an empty id decoded as %+v", c, got)
			}
			return
		}
		fits := utf8.RuneCountInString(str) <= 100 && utf8.RuneCountInString(id) <= 64
		if err != nil {
			if fits || quire.ErrorCode(err) != quire.CodeInvalid {
				t.Fatalf("cursor %+v encoded as %q does not decode: %v", c, enc, err)
			}
			return
		}
		want := store.Cursor{Num: num, Str: string([]rune(str)), ID: string([]rune(id))}
		if *got != want {
			t.Fatalf("cursor %+v round-tripped as %+v, want %+v", c, *got, want)
		}
	})
}
