package render

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func ptr(b bool) *bool { return &b }

func TestParsePage(t *testing.T) {
	tests := []struct {
		name, md string
		meta     PageMeta
		body     string
	}{
		{"empty", "", PageMeta{}, ""},
		{"body only", "Some text.", PageMeta{}, "Some text.\n"},
		{"atx title", "# Install\n\nRun it.\n", PageMeta{Title: "Install"}, "Run it.\n"},
		{"atx title with closing hashes", "# Install ##\nRun it.", PageMeta{Title: "Install"}, "Run it.\n"},
		{"setext title", "Install\n=======\n\nRun it.", PageMeta{Title: "Install"}, "Run it.\n"},
		{"two-line setext title", "Install\nguide\n===\nRun it.", PageMeta{Title: "Install guide"}, "Run it.\n"},
		{"title after blank lines", "\n  \n# Install\n\n\nRun it.\n\n\n", PageMeta{Title: "Install"}, "Run it.\n"},
		{"only a title", "# Install\n", PageMeta{Title: "Install"}, ""},
		{"empty heading", "#\n\nRun it.", PageMeta{}, "Run it.\n"},
		{"inline markup reduced to text", "# *Get* `started` [now](x.md) ![img](i.png) \\* &amp;\n", PageMeta{Title: "Get started now img * &"}, ""},
		{"level 2 is not a title", "## Install\n", PageMeta{}, "## Install\n"},
		{"heading not first", "Intro\n\n# Install\n", PageMeta{}, "Intro\n\n# Install\n"},
		{"hash in fenced code", "```\n# not a heading\n```\n", PageMeta{}, "```\n# not a heading\n```\n"},
		{"indented hash is code", "    # code\n", PageMeta{}, "    # code\n"},
		{"hash without space", "#hashtag\n", PageMeta{}, "#hashtag\n"},
		{"html before heading", "<!-- c -->\n# Install\n", PageMeta{}, "<!-- c -->\n# Install\n"},
		{"link definition before heading", "[a]: /x\n# T\n", PageMeta{}, "[a]: /x\n# T\n"},
		{"front matter", "---\ntitle: Install\ndescription: How to install\nemoji: \"🚀\"\nicon: rocket\nhidden: true\nnoIndex: false\nnoRobotsIndex: yes\nother: [1, 2]\n---\nRun it.\n",
			PageMeta{Title: "Install", Description: "How to install", Emoji: "🚀", Icon: "rocket", Hidden: ptr(true), NoIndex: ptr(false), NoRobotsIndex: ptr(true)}, "Run it.\n"},
		{"front matter title keeps the heading", "---\ntitle: Setup\n---\n# Install\n\nRun it.", PageMeta{Title: "Setup"}, "# Install\n\nRun it.\n"},
		{"front matter without title", "---\ndescription: d\n---\n\n# Install\nRun it.", PageMeta{Title: "Install", Description: "d"}, "Run it.\n"},
		{"empty title in front matter", "---\ntitle: \"\"\n---\n# Install\n", PageMeta{Title: "Install"}, ""},
		{"null values", "---\ntitle:\nhidden: ~\n---\nx", PageMeta{}, "x\n"},
		{"number title is its text", "---\ntitle: 404\n---\n", PageMeta{Title: "404"}, ""},
		{"empty front matter", "---\n---\nx", PageMeta{}, "x\n"},
		{"comment-only front matter", "---\n# just a comment\n---\nx", PageMeta{}, "x\n"},
		{"crlf front matter", "---\r\ntitle: T\r\n---\r\nx\r\n", PageMeta{Title: "T"}, "x\n"},
		{"front matter at end of file", "---\ntitle: T\n---", PageMeta{Title: "T"}, ""},
		{"unclosed front matter is body", "---\ntitle: T\n", PageMeta{}, "---\ntitle: T\n"},
		// Not at the very start: a thematic break, then a level-2 setext heading.
		{"front matter not at the start", "\n---\ntitle: T\n---\n", PageMeta{}, "---\ntitle: T\n---\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meta, body, err := ParsePage(tt.md)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.meta, meta); diff != "" {
				t.Errorf("meta (-want +got):\n%s", diff)
			}
			if body != tt.body {
				t.Errorf("body %q, want %q", body, tt.body)
			}
		})
	}
}

func TestParsePageErrors(t *testing.T) {
	tests := []struct{ name, md, want string }{
		{"invalid yaml", "---\ntitle: [unclosed\n---\n", "front matter"},
		{"not a mapping", "---\n- a\n- b\n---\n", "mapping"},
		{"list title", "---\ntitle: [a, b]\n---\n", `"title" must be a string`},
		{"map icon", "---\nicon: {a: b}\n---\n", `"icon" must be a string`},
		{"string boolean", "---\nhidden: \"true\"\n---\n", `"hidden" must be true or false`},
		{"number boolean", "---\nnoIndex: 1\n---\n", `"noIndex" must be true or false`},
		{"duplicate key", "---\ntitle: a\ntitle: b\n---\n", `"title" is given twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParsePage(tt.md)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestPageMarkdown(t *testing.T) {
	tests := []struct{ title, desc, body, want string }{
		{"Install", "", "Run it.", "# Install\n\nRun it.\n"},
		{"Install", "", "", "# Install\n"},
		{"", "", "Run it.\n", "#\n\nRun it.\n"},
		{"Install", "How: to\n---\n", "Run it.\n", "---\ndescription: \"How: to\\n---\\n\"\n---\n# Install\n\nRun it.\n"},
		{"a *b* [c] <d> R&D &amp; C#", "", "", "# a \\*b\\* \\[c\\] \\<d> R&D \\&amp; C\\#\n"},
	}
	for _, tt := range tests {
		if got := PageMarkdown(tt.title, tt.desc, tt.body); got != tt.want {
			t.Errorf("PageMarkdown(%q, %q, %q) = %q, want %q", tt.title, tt.desc, tt.body, got, tt.want)
		}
	}
}

// Titles, descriptions and bodies that markdown or YAML could misread.
var (
	trickyTitles = []string{"", "Install", "C#", "C ##", "#", "a # b #", "a *b* _c_ **d**", "`code`", "[link](x.md)", "![img](i.png)",
		"<b>html</b>", "<https://x.example>", "R&D", "&amp; &#35; &copy;", `back\slash \* \`, "~~strike~~", "a | b", "===", "---",
		"1. one", "- item", "> quote", "emoji 🚀", "tab\tinside", "trailing \\"}
	trickyDescriptions = []string{"", "plain", "key: value", "---", "- list", "# comment", "'single' \"double\"", "line\nbreaks\n",
		"  padded  ", "true", "null", "123", "{a: b}", "tab\there", "\\backslash", "🚀 \u2028 \u0085"}
	trickyBodies = []string{"", "Text.\n", "# Heading\n\nText.\n", "Title\n===\n", "===\n", "---\n", "---\ntitle: x\n---\n",
		"    code\n", "```\n# x\n```\n", "[a]: /x\n", "- a\n- b\n", "> q\n", "a\n\n\nb\n", "<!-- c -->\n"}
)

func TestPageRoundTrip(t *testing.T) {
	for _, title := range trickyTitles {
		for _, desc := range trickyDescriptions {
			for _, body := range trickyBodies {
				checkRoundTrip(t, title, desc, body)
			}
		}
	}
}

// checkRoundTrip checks that ParsePage reads back what PageMarkdown wrote.
// The body comes back normalized: without leading or trailing blank lines,
// ending in one newline.
func checkRoundTrip(t *testing.T, title, desc, body string) {
	t.Helper()
	md := PageMarkdown(title, desc, body)
	meta, got, err := ParsePage(md)
	if err != nil {
		t.Fatalf("PageMarkdown(%q, %q, %q) = %q: %v", title, desc, body, md, err)
	}
	if meta.Title != title || meta.Description != desc || got != normalizeBody(body) {
		t.Fatalf("PageMarkdown(%q, %q, %q) = %q\nread back title %q, description %q, body %q", title, desc, body, md, meta.Title, meta.Description, got)
	}
	if (meta != PageMeta{Title: title, Description: desc}) {
		t.Fatalf("PageMarkdown(%q, %q, %q) = %q: read back extra metadata %+v", title, desc, body, md, meta)
	}
}

// roundTrips reports whether the round trip is expected to hold: valid
// UTF-8, a one-line title without surrounding white space or control
// characters, and a body without surrounding white space.
func roundTrips(title, desc, body string) bool {
	for _, s := range []string{title, desc, body} {
		if !utf8.ValidString(s) {
			return false
		}
	}
	if strings.TrimSpace(title) != title || strings.IndexFunc(title, unicode.IsControl) >= 0 {
		return false
	}
	return strings.TrimSpace(body) == body
}

func FuzzParsePage(f *testing.F) {
	for i, title := range trickyTitles {
		f.Add(PageMarkdown(title, "", ""), title, trickyDescriptions[i%len(trickyDescriptions)], trickyBodies[i%len(trickyBodies)])
	}
	f.Add("---\ntitle: T\nhidden: true\n---\n# H\n", "", "", "")
	f.Fuzz(func(t *testing.T, md, title, desc, body string) {
		// Any input: no panic; a read body is normalized and reads back the same.
		if meta, got, err := ParsePage(md); err == nil {
			if got != normalizeBody(got) {
				t.Fatalf("ParsePage(%q) body %q is not normalized", md, got)
			}
			if meta.Title != "" && roundTrips(meta.Title, meta.Description, got) {
				checkRoundTrip(t, meta.Title, meta.Description, got)
			}
		}
		if roundTrips(title, desc, body) {
			checkRoundTrip(t, title, desc, body)
		}
	})
}
