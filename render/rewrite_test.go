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

func TestRewriteTargets(t *testing.T) {
	to := func(target string) (string, bool) {
		switch target {
		case "a b.md":
			return "/pages/p1", true
		case "/files/f1":
			return "img/logo & co.png", true
		}
		return "", false
	}
	cases := []struct{ in, want string }{
		{"[a](<a b.md>)\n", "[a](</pages/p1>)\n"},
		{"[a](other.md)\n", "[a](other.md)\n"},
		{`{% file src="/files/f1" %}` + "\n", `{% file src="img/logo &amp; co.png" %}` + "\n"},
		{`{% content-ref url="a b.md" %}` + "\n", `{% content-ref url="/pages/p1" %}` + "\n"},
		{`<img src="/files/f1" alt="x">` + "\n", `<img src="img/logo &amp; co.png" alt="x">` + "\n"},
		{`<a href="a&#32;b.md">x</a>` + "\n", `<a href="/pages/p1">x</a>` + "\n"},
		{"`<img src=\"/files/f1\">`\n", "`<img src=\"/files/f1\">`\n"},
		{"```html title=\"<img src=\\\"/files/f1\\\">\"\n<img src=\"/files/f1\">\n```\n", "```html title=\"<img src=\\\"/files/f1\\\">\"\n<img src=\"/files/f1\">\n```\n"},
		{"", ""},
	}
	for _, c := range cases {
		if got := RewriteTargets(c.in, to); got != c.want {
			t.Errorf("RewriteTargets(%q) = %q, want %q", c.in, got, c.want)
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
		if RewriteTargets(md, func(string) (string, bool) { return "", false }) != md {
			t.Fatal("no rewritten target changed the text")
		}
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
