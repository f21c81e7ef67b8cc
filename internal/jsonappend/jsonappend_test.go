package jsonappend

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// FuzzString: strings are written exactly as encoding/json writes them,
// whatever bytes they hold.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnew\nline\r\b\f\x00\x1f", "<a href='x'>&</a>",
		"émoji 👍🏽 \u2028\u2029", "bad \xff\xfe utf-8 \xe2\x82", "@[Ada](user:abc)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := String(nil, s); string(got) != string(want) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestTime(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, 3, 1, 9, 5, 7, 123456789, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("X", 5*3600)),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC),
		time.UnixMicro(1767225600000001),
	} {
		if got, want := string(Time(nil, at)), `"`+at.UTC().Format(TimeLayout)+`"`; got != want {
			t.Errorf("Time(%v) = %s, want %s", at, got, want)
		}
	}
}

func TestEach(t *testing.T) {
	for n, want := range []string{"", "0", "0,1", "0,1,2"} {
		got := Each(nil, n, func(b []byte, i int) []byte { return strconv.AppendInt(b, int64(i), 10) })
		if string(got) != want {
			t.Errorf("Each(%d) = %q, want %q", n, got, want)
		}
	}
}
