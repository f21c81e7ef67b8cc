package render

import "testing"

func TestRewriteLinks(t *testing.T) {
	repl := map[string]string{"./install.md": "/pages/p1", "logo.png": "/files/f1"}
	cases := []struct{ in, want string }{
		{"[a](./install.md)\n", "[a](/pages/p1)\n"},
		{"[a](./install.md \"Install\")\n", "[a](/pages/p1 \"Install\")\n"},
		{"[a](<./install.md>)\n", "[a](</pages/p1>)\n"},
		{"[a][x]\n\n[x]: ./install.md\n", "[a][x]\n\n[x]: /pages/p1\n"},
		{"![l](logo.png)\n", "![l](/files/f1)\n"},
		{"`[a](./install.md)` and [b](./install.md)\n", "`[a](./install.md)` and [b](/pages/p1)\n"},
		{"``[a](./install.md)``\n", "``[a](./install.md)``\n"},
		{"```md\n[a](./install.md)\n```\n\n[b](./install.md)\n", "```md\n[a](./install.md)\n```\n\n[b](/pages/p1)\n"},
		{"    [a](./install.md)\n\n[b](./install.md)\n", "    [a](./install.md)\n\n[b](/pages/p1)\n"},
		{"<div>[a](./install.md)</div>\n", "<div>[a](./install.md)</div>\n"},
		{"[a](./other.md)\n", "[a](./other.md)\n"},
		{"", ""},
	}
	for _, c := range cases {
		if got := RewriteLinks(c.in, repl); got != c.want {
			t.Errorf("RewriteLinks(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzRewriteLinks(f *testing.F) {
	f.Add("[a](./install.md) `x` ```\n[b](./install.md)\n```")
	f.Fuzz(func(t *testing.T, md string) {
		out := RewriteLinks(md, map[string]string{"./install.md": "/pages/p1"})
		if RewriteLinks(md, nil) != md {
			t.Fatal("no replacements changed the text")
		}
		_ = out
	})
}

func TestResolveBatchRefs(t *testing.T) {
	r := &Resolver{Tree: testTree(), Refs: map[string]string{"new": "a"}, FileRefs: map[string]string{"logo": "f9"}}
	for target, want := range map[string]Resolution{
		"./new.md":     {Kind: KindPage, PageID: "a", Status: StatusOK},
		"./new.md#sec": {Kind: KindPage, PageID: "a", Status: StatusOK},
		"new":          {Kind: KindPage, PageID: "a", Status: StatusOK},
		"./logo":       {Kind: KindFile, FileID: "f9", Status: StatusOK},
	} {
		if got := r.Resolve("", target); got != want {
			t.Errorf("Resolve(%q) = %+v, want %+v", target, got, want)
		}
	}
}
