package quire

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPageSlug(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Getting Started", "getting-started"},
		{"  --a--b--  ", "a-b"},
		{"C++ & Go", "c-go"},
		{"Ünïcödé Tïtle", "ünïcödé-tïtle"},
		{"日本語", "日本語"},
		{"", "page"},
		{"🎉", "page"},
		{"v1.2.3", "v1-2-3"},
		{"a" + strings.Repeat("é", 60), "a" + strings.Repeat("é", 49)}, // cut on a rune boundary
		{strings.Repeat("a", 200), strings.Repeat("a", MaxSlug)},
		{strings.Repeat("ab ", 60), strings.Repeat("ab-", 34)[:MaxSlug]},
		{strings.Repeat("abc ", 30), strings.Repeat("abc-", 25)[:MaxSlug-1]}, // no trailing "-"
	} {
		got := PageSlug(tt.in)
		if got != tt.want {
			t.Errorf("PageSlug(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if err := CheckSlug(got); err != nil {
			t.Errorf("PageSlug(%q) = %q: %v", tt.in, got, err)
		}
	}
}

func TestSlugify(t *testing.T) {
	long := strings.Repeat("abcdefghi ", 20)
	for _, tt := range []struct{ in, fallback, want string }{
		{"Getting Started", "section", "getting-started"},
		{"  --a--b--  ", "section", "a-b"},
		{"C++ & Go", "space", "c-go"},
		{"", "section", "section"},
		{"🎉 !", "space", "space"},
		// Stops after the character that reaches 90 bytes, never cutting
		// one in two, and never at 100 as a page slug does.
		{strings.Repeat("a", 200), "x", strings.Repeat("a", 90)},
		{long, "x", strings.ReplaceAll(strings.TrimSpace(long), " ", "-")[:91]}, // a dash and a letter past 89
		{strings.Repeat("a", 89) + " é", "x", strings.Repeat("a", 89) + "-é"},
		{strings.Repeat("a", 89) + "日本", "x", strings.Repeat("a", 89) + "日"},
	} {
		if got := Slugify(tt.in, tt.fallback); got != tt.want {
			t.Errorf("Slugify(%q, %q) = %q, want %q", tt.in, tt.fallback, got, tt.want)
		}
	}
}

func TestCheckSlug(t *testing.T) {
	for _, tt := range []struct{ in, err string }{
		{"getting-started", ""},
		{"", ""},
		{strings.Repeat("é", MaxSlug), ""}, // characters, not bytes
		{strings.Repeat("a", MaxSlug+1), "at most 100 characters"},
		{"a/b", "must not contain /, ?, #, \\ or spaces"},
		{"a b", "must not contain /, ?, #, \\ or spaces"},
		{"a?b", "must not contain /, ?, #, \\ or spaces"},
		{"a#b", "must not contain /, ?, #, \\ or spaces"},
		{`a\b`, "must not contain /, ?, #, \\ or spaces"},
		{"a\tb", "must not contain /, ?, #, \\ or spaces"},
		{"a\nb", "must not contain /, ?, #, \\ or spaces"},
	} {
		err := CheckSlug(tt.in)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.err {
			t.Errorf("CheckSlug(%q) = %q, want %q", tt.in, got, tt.err)
		}
	}
}

func TestNumberedSlug(t *testing.T) {
	for _, tt := range []struct {
		slug   string
		n, max int
		want   string
	}{
		{"setup", 0, MaxSlug, "setup"},
		{"setup", 1, MaxSlug, "setup"},
		{"setup", 2, MaxSlug, "setup-2"},
		{"setup", 10, MaxSlug, "setup-10"},
		{strings.Repeat("a", 100), 2, MaxSlug, strings.Repeat("a", 98) + "-2"},
		{strings.Repeat("a", 100), 10, MaxSlug, strings.Repeat("a", 97) + "-10"},
		{strings.Repeat("é", 50), 2, MaxSlug, strings.Repeat("é", 49) + "-2"}, // cut on a rune boundary
		{strings.Repeat("a", 100), 2, 0, strings.Repeat("a", 100) + "-2"},     // no limit
		{"ab", 2, 1, "-2"},
	} {
		if got := NumberedSlug(tt.slug, tt.n, tt.max); got != tt.want {
			t.Errorf("NumberedSlug(%q, %d, %d) = %q, want %q", tt.slug, tt.n, tt.max, got, tt.want)
		}
	}
}

func TestFreeSlug(t *testing.T) {
	for _, tt := range []struct {
		name  string
		slug  string
		taken []string
		want  string
	}{
		{"free", "setup", nil, "setup"},
		{"taken", "setup", []string{"setup"}, "setup-2"},
		{"next free", "setup", []string{"setup", "setup-2", "setup-3"}, "setup-4"},
		{"gap", "setup", []string{"setup", "setup-3"}, "setup-2"},
		{"long", strings.Repeat("a", 100), []string{strings.Repeat("a", 100)}, strings.Repeat("a", 98) + "-2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			taken := map[string]bool{}
			for _, s := range tt.taken {
				taken[s] = true
			}
			if got := FreeSlug(tt.slug, MaxSlug, func(s string) bool { return taken[s] }); got != tt.want {
				t.Errorf("FreeSlug(%q) = %q, want %q", tt.slug, got, tt.want)
			}
		})
	}
}

// FuzzPageSlug: a made slug always passes CheckSlug, fits MaxSlug bytes, is
// valid UTF-8 and numbering it keeps it within MaxSlug bytes.
func FuzzPageSlug(f *testing.F) {
	for _, s := range []string{"Getting Started", "", "🎉", strings.Repeat("é", 120), strings.Repeat("ab ", 60)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, title string) {
		s := PageSlug(title)
		if err := CheckSlug(s); err != nil || len(s) > MaxSlug || !utf8.ValidString(s) || strings.HasSuffix(s, "-") {
			t.Fatalf("PageSlug(%q) = %q (err %v)", title, s, err)
		}
		if n := NumberedSlug(s, 12, MaxSlug); len(n) > MaxSlug || !utf8.ValidString(n) {
			t.Fatalf("NumberedSlug(%q) = %q", s, n)
		}
	})
}
