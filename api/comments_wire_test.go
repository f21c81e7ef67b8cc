package api

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzAppendString: the hand-written comment encoder writes strings exactly
// as encoding/json does, whatever bytes a comment body holds.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnew\nline\r\b\f\x00\x1f", "<a href='x'>&</a>",
		"émoji 👍🏽 \u2028\u2029", "bad \xff\xfe utf-8 \xe2\x82", "@[Ada](user:abc)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); string(got) != string(want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestAppendTime(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2026, 3, 1, 9, 5, 7, 123456789, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("X", 5*3600)),
		time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(12345, 1, 1, 0, 0, 0, 0, time.UTC),
		time.UnixMicro(1767225600000001),
	} {
		if got, want := string(appendTime(nil, at)), `"`+timeJSON(at)+`"`; got != want {
			t.Errorf("appendTime(%v) = %s, want %s", at, got, want)
		}
	}
}
