package quire

import (
	"strings"
	"testing"
)

func TestCheckChars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v         string
		line, txt string // "" when allowed, else a part of the message
	}{
		{"Getting started", "", ""},
		{"Ünïcödé 📘 日本語", "", ""},
		{"", "", ""},
		{"a\x00b", "control characters", "control characters"},
		{"\x01", "control characters", "control characters"},
		{"bell\a", "control characters", "control characters"},
		{"esc\x1b[31m", "control characters", "control characters"},
		{"\x1f", "control characters", "control characters"},
		{"del\x7f", "control characters", "control characters"},
		{"c1\u0080", "control characters", "control characters"},
		{"c1\u0085", "control characters", "control characters"}, // NEL
		{"c1\u009f", "control characters", "control characters"},
		{"\u00a0no-break space", "", ""},
		{"tab\there", "control characters", ""},
		{"two\nlines", "control characters", ""},
		{"windows\r\nlines", "control characters", ""},
		{"bad \xff utf-8", "valid UTF-8", "valid UTF-8"},
		{"cut \xe6\x97", "valid UTF-8", "valid UTF-8"},
		{"replacement \uFFFD is fine", "", ""},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			multiline bool
			want      string
		}{{false, tt.line}, {true, tt.txt}} {
			err := CheckChars("title", tt.v, c.multiline)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("CheckChars(%q, multiline %v) = %v, want nil", tt.v, c.multiline, err)
			case c.want != "" && (err == nil || ErrorCode(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "title: ") || !strings.Contains(err.Error(), c.want)):
				t.Errorf("CheckChars(%q, multiline %v) = %v, want an invalid error naming title: %s", tt.v, c.multiline, err, c.want)
			}
		}
	}
}

func TestCheckLenAndText(t *testing.T) {
	t.Parallel()
	if err := CheckLen("title", "a\x00", 1, 10); err == nil || err.Error() != "title: must not contain control characters" {
		t.Errorf("CheckLen with NUL: %v", err)
	}
	if err := CheckLen("title", "two\nlines", 1, 10); err == nil {
		t.Error("CheckLen allowed a line feed")
	}
	if err := CheckText("description", "two\nlines\tand a tab", 1, 30); err != nil {
		t.Errorf("CheckText: %v", err)
	}
	if err := CheckText("description", "nul\x00", 1, 30); err == nil {
		t.Error("CheckText allowed NUL")
	}
	if err := CheckText("description", "too long", 1, 3); err == nil || !strings.Contains(err.Error(), "1 to 3 characters") {
		t.Errorf("CheckText length: %v", err)
	}
	if err := CheckEmail("email", "a\x00@example.com"); err == nil || !strings.Contains(err.Error(), "control characters") {
		t.Errorf("CheckEmail with NUL: %v", err)
	}
}
