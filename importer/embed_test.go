package importer

import (
	"net/url"
	"strings"
	"testing"
)

func TestReadHead(t *testing.T) {
	base, _ := url.Parse("https://example.com/blog/post")
	for _, tc := range []struct {
		name, ctype, page string
		want              Head
	}{
		{"title only", "text/html", `<html><head><title> A  post
			</title></head><body><h1>Other</h1></body></html>`, Head{Title: "A post"}},
		{"open graph over title", "text/html", `<head><title>Plain</title><meta property="og:title" content="Rich title">
			<meta property="og:site_name" content="Example Blog"><link rel="icon" href="/favicon.png">
			<link rel="alternate" type="application/json+oembed" href="/oembed?url=x"></head>`,
			Head{Title: "Rich title", SiteName: "Example Blog", Icon: "https://example.com/favicon.png", OEmbed: "https://example.com/oembed?url=x"}},
		{"twitter title, shortcut icon, relative", "text/html", `<meta name="twitter:title" content="Tweeted"><link rel="Shortcut Icon" href="icon.ico">`,
			Head{Title: "Tweeted", Icon: "https://example.com/blog/icon.ico"}},
		{"script links are not links", "text/html", `<link rel="icon" href="javascript:alert(1)"><link rel="alternate" type="application/json+oembed" href="data:x">`, Head{}},
		{"svg title is not the page's", "text/html", `<body><svg><title>Icon</title></svg></body>`, Head{}},
		{"latin-1 by header", "text/html; charset=iso-8859-1", "<title>Caf\xe9</title>", Head{Title: "Café"}},
		{"latin-1 by meta", "text/html", "<meta charset=\"iso-8859-1\"><title>Na\xefve</title>", Head{Title: "Naïve"}},
		{"control characters dropped", "text/html", "<title>a\x01b\u200bc</title>", Head{Title: "ab\u200bc"}},
		{"cut mid-page", "text/html", `<head><meta property="og:title" content="Kept"><title>Unfinis`, Head{Title: "Kept"}},
		{"long title cut", "text/html", "<title>" + strings.Repeat("x", 300) + "</title>", Head{Title: strings.Repeat("x", maxEmbedText)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReadHead([]byte(tc.page), tc.ctype, base); got != tc.want {
				t.Errorf("ReadHead = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseOEmbed(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		ok         bool
		want       OEmbed
	}{
		{"video: Quire's own frame, not the provider's HTML", `{"type":"video","title":"A talk","provider_name":"Tube",
			"html":"<iframe src=\"https://tube.example/embed/1?x=1&amp;y=2\" width=\"480\" height=\"270\" onload=\"alert(1)\"></iframe><script>alert(2)</script>"}`,
			true, OEmbed{Title: "A talk", Provider: "Tube", HTML: FrameHTML("https://tube.example/embed/1?x=1&y=2", "A talk", 480, 270)}},
		{"size from the answer", `{"type":"rich","html":"<iframe src='https://w.example/e'></iframe>","width":"800","height":450}`,
			true, OEmbed{HTML: FrameHTML("https://w.example/e", "", 800, 450)}},
		{"rich without a frame: no HTML", `{"type":"rich","title":"Post","html":"<blockquote>hi</blockquote><script src='https://x.example/w.js'></script>"}`,
			true, OEmbed{Title: "Post"}},
		{"plain http frame refused", `{"type":"video","html":"<iframe src='http://tube.example/e'></iframe>"}`, true, OEmbed{}},
		{"javascript frame refused", `{"type":"video","html":"<iframe src='javascript:alert(1)'></iframe>"}`, true, OEmbed{}},
		{"photo", `{"type":"photo","title":"Cat \"1\"","url":"https://img.example/cat.png"}`,
			true, OEmbed{Title: `Cat "1"`, HTML: imageHTML("https://img.example/cat.png", `Cat "1"`)}},
		{"link", `{"type":"link","title":"Page","provider_name":"Site"}`, true, OEmbed{Title: "Page", Provider: "Site"}},
		{"odd field types", `{"type":"video","title":3,"html":["x"]}`, true, OEmbed{}},
		{"not oEmbed", `{"hello":"world"}`, false, OEmbed{}},
		{"not JSON", `<html>`, false, OEmbed{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseOEmbed([]byte(tc.body))
			if ok != tc.ok || got != tc.want {
				t.Errorf("ParseOEmbed = %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if h := FrameHTML(`https://e.example/"><script>`, `<b>`, 0, 0); strings.Contains(h, "<script>") || strings.Contains(h, "<b>") || !strings.Contains(h, `width="640" height="360"`) {
		t.Errorf("FrameHTML does not escape or size: %s", h)
	}
}

// FuzzReadHead: any page, cut anywhere, reads without panicking, and what
// it gives is clean: links absolute http(s), text without control
// characters, within bounds.
func FuzzReadHead(f *testing.F) {
	f.Add([]byte(`<head><title>T</title><meta property="og:title" content="O"><link rel="icon" href="/i"><link rel="alternate" type="application/json+oembed" href="/o"></head>`), "text/html")
	f.Add([]byte("<meta charset=\"shift_jis\"><title>\x82\xa0</title>"), "")
	f.Fuzz(func(t *testing.T, page []byte, ctype string) {
		base, _ := url.Parse("https://example.com/a/b")
		h := ReadHead(page, ctype, base)
		for _, u := range []string{h.Icon, h.OEmbed} {
			if u != "" && !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
				t.Errorf("link %q is not http(s)", u)
			}
		}
		for _, s := range []string{h.Title, h.SiteName} {
			if len([]rune(s)) > maxEmbedText || strings.ContainsAny(s, "\x00\n\r\t") {
				t.Errorf("text %q", s)
			}
		}
	})
}

// FuzzParseOEmbed: any answer parses without panicking, and HTML is only
// ever Quire's own frame or image of an https address.
func FuzzParseOEmbed(f *testing.F) {
	f.Add([]byte(`{"type":"video","title":"t","html":"<iframe src=\"https://x.example/e\" width=\"1\" height=\"2\"></iframe>"}`))
	f.Add([]byte(`{"type":"photo","url":"https://x.example/p.png"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		o, _ := ParseOEmbed(body)
		if o.HTML != "" && !strings.HasPrefix(o.HTML, `<iframe src="https://`) && !strings.HasPrefix(o.HTML, `<img src="https://`) {
			t.Errorf("HTML %q", o.HTML)
		}
		if strings.Count(o.HTML, "<") != 2 && strings.HasPrefix(o.HTML, "<iframe") {
			t.Errorf("frame HTML with more than its own tags: %q", o.HTML)
		}
	})
}
