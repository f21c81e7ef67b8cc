package render

import "testing"

// imagesTests are images as Git Sync writes them.
var imagesTests = []struct{ name, md, want string }{
	{"plain images stay markdown", "![one](/files/f1)\n![](https://i.example/b.png)\n",
		`images[image{"alt":"one","ref":{"file":"f1","kind":"file"}} image{"ref":{"kind":"url","url":"https://i.example/b.png"}}]`},
	{"figure with a caption", "<figure><img src=\"/files/f1\" alt=\"\"><figcaption><p>El interruptor está señalado.</p></figcaption></figure>\n",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph["El interruptor está señalado."]}]`},
	{"figure with an empty caption", "<figure><img src=\"https://i.example/a.png\" alt=\"A diagram\"><figcaption></figcaption></figure>\n",
		`images[image{"alt":"A diagram","ref":{"kind":"url","url":"https://i.example/a.png"}} caption{paragraph[""]}]`},
	{"caption with marks", "<figure><img src=\"/files/f1\" alt=\"\"><figcaption><p>Dynamic <strong>x</strong> *y*</p></figcaption></figure>\n",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph["Dynamic " bold:"x" " *y*"]}]`},
	{"width", "<div align=\"left\"><figure><img src=\"/files/f1\" alt=\"\" width=\"375\"><figcaption></figcaption></figure></div>\n",
		`images{"align":"left"}[image{"ref":{"file":"f1","kind":"file"},"width":375} caption{paragraph[""]}]`},
	{"width and height, a percentage", "<figure><img src=\"/files/f1\" alt=\"\" width=\"50%\" height=\"200\"></figure>\n",
		`images[image{"height":200,"ref":{"file":"f1","kind":"file"},"width":{"unit":"%","value":50}}]`},
	{"light and dark", "<figure><picture><source srcset=\"https://i.example/dark.svg\" media=\"(prefers-color-scheme: dark)\"><img src=\"https://i.example/light.svg\" alt=\"\"></picture><figcaption><p>Dynamic reward</p></figcaption></figure>\n",
		`images[image{"ref":{"kind":"url","url":"https://i.example/light.svg"},"refDark":{"kind":"url","url":"https://i.example/dark.svg"}} caption{paragraph["Dynamic reward"]}]`},
	{"several in one block", "<div><figure><img src=\"/files/f1\" alt=\"\"><figcaption><p>True</p></figcaption></figure> <figure><img src=\"https://i.example/b.png\" alt=\"\"><figcaption><p>False</p></figcaption></figure></div>\n",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph["True"]} image{"ref":{"kind":"url","url":"https://i.example/b.png"}} caption{paragraph["False"]}]`},
	{"aligned", "<div align=\"center\"><figure><img src=\"https://i.example/a.png?a=1&#x26;b=2\" alt=\"A &#x22;photo&#x22;\"><figcaption><p>An example</p></figcaption></figure></div>\n",
		`images{"align":"center"}[image{"alt":"A \"photo\"","ref":{"kind":"url","url":"https://i.example/a.png?a=1&b=2"}} caption{paragraph["An example"]}]`},
	{"caption html", "<figure><img src=\"/files/f1\" alt=\"\"><figcaption><p>&#x20;See <a href=\"https://x.example/a\">the <code>docs</code></a> <strong><em>now</em></strong> &#x26; &#x3C;b&#x3E; *x*<br>more&#x20;</p></figcaption></figure>\n",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph[" See " link{"ref":{"kind":"url","url":"https://x.example/a"}}["the " code:"docs"] " " bold+italic:"now" " & <b> *x*\nmore "]}]`},
	{"full width", "<div data-full-width=\"true\"><figure><img src=\"https://img.test/a.png\" alt=\"\" width=\"300\"><figcaption></figcaption></figure></div>\n",
		`images{"fullWidth":true}[image{"ref":{"kind":"url","url":"https://img.test/a.png"},"width":300} caption{paragraph[""]}]`},
	{"in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n<figure><img src=\"/files/f1\" alt=\"\"><figcaption><p>c</p></figcaption></figure>\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"A"}[images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph["c"]}]]]`},
}

// imagesReadTests are other markdown with figures.
var imagesReadTests = []struct{ name, md, want string }{
	{"figure by path", "<figure><img src=\"logo.png\" alt=\"Logo\"><figcaption><p>c</p></figcaption></figure>",
		`images[image{"alt":"Logo","ref":{"file":"f1","kind":"file"}} caption{paragraph["c"]}]`},
	{"without a caption it is written as markdown", "<figure><img src=\"logo.png\" alt=\"\"></figure>", `images[image{"ref":{"file":"f1","kind":"file"}}]`},
	{"an empty paragraph is an empty caption", "<figure><img src=\"logo.png\" alt=\"\"><figcaption><p></p></figcaption></figure>",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph[""]}]`},
	{"other attributes stay html", "<figure><img src=\"logo.png\" alt=\"\" title=\"t\"></figure>", `paragraph["<figure><img src=\"logo.png\" alt=\"\" title=\"t\"></figure>"]`},
	{"another media stays html", "<figure><picture><source srcset=\"a.png\" media=\"print\"><img src=\"b.png\" alt=\"\"></picture></figure>",
		`paragraph["<figure><picture><source srcset=\"a.png\" media=\"print\"><img src=\"b.png\" alt=\"\"></picture></figure>"]`},
	{"two figures need a div", "<figure><img src=\"a.png\" alt=\"\"></figure> <figure><img src=\"b.png\" alt=\"\"></figure>",
		`paragraph["<figure><img src=\"a.png\" alt=\"\"></figure> <figure><img src=\"b.png\" alt=\"\"></figure>"]`},
	{"other tags in a caption are text", "<figure><img src=\"logo.png\" alt=\"\"><figcaption><p><span>a</span> <b>b</b> <a>c</a></p></figcaption></figure>",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph["<span>a</span> " bold:"b" " <a>c</a>"]}]`},
	{"a link left open is its text", "<figure><img src=\"logo.png\" alt=\"\"><figcaption><p><a href=\"x\">a <em>b</em></p></figcaption></figure>",
		`images[image{"ref":{"file":"f1","kind":"file"}} caption{paragraph["a " italic:"b"]}]`},
	{"a width in other units is dropped", "<figure><img src=\"logo.png\" alt=\"\" width=\"10em\"></figure>", `images[image{"ref":{"file":"f1","kind":"file"}}]`},
	{"in a list item it is inline, its caption a paragraph", "- <figure><img src=\"logo.png\" alt=\"a\"><figcaption><p>c</p></figcaption></figure>",
		`list-unordered[list-item[paragraph[inline-image{"alt":"a","ref":{"file":"f1","kind":"file"}}] paragraph["c"]]]`},
	{"in a hint it is inline", "{% hint style=\"info\" %}\n<div><figure><img src=\"a.png\" alt=\"\"></figure> <figure><img src=\"b.png\" alt=\"\"><figcaption></figcaption></figure></div>\n{% endhint %}",
		`hint{"style":"info"}[paragraph[inline-image{"ref":{"kind":"url","url":"a.png"}} inline-image{"ref":{"kind":"url","url":"b.png"}}]]`},
}

func TestImagesRoundTrip(t *testing.T) { checkKind(t, outlineFragments, imagesTests, imagesReadTests) }

// drawingTests are drawings as Git Sync writes them.
var drawingTests = []struct{ name, md, want string }{
	{"drawing", "<img src=\"/files/f1\" alt=\"A diagram drawn in GitBook\" class=\"gitbook-drawing\">\n", `drawing{"alt":"A diagram drawn in GitBook","ref":{"file":"f1","kind":"file"}}`},
	{"without alt", "<img src=\"/files/f1\" alt=\"\" class=\"gitbook-drawing\">\n", `drawing{"ref":{"file":"f1","kind":"file"}}`},
}

var drawingReadTests = []struct{ name, md, want string }{
	{"by path", "<img src=\"logo.png\" alt=\"d\" class=\"gitbook-drawing\">", `drawing{"alt":"d","ref":{"file":"f1","kind":"file"}}`},
	{"not a file of the space it is html", "<img src=\"https://x.example/a.svg\" alt=\"d\" class=\"gitbook-drawing\">",
		`paragraph["<img src=\"https://x.example/a.svg\" alt=\"d\" class=\"gitbook-drawing\">"]`},
	{"in a list item it is html", "- <img src=\"logo.png\" alt=\"\" class=\"gitbook-drawing\">", `list-unordered[list-item[paragraph["<img src=\"logo.png\" alt=\"\" class=\"gitbook-drawing\">"]]]`},
	{"another class is html", "<img src=\"logo.png\" alt=\"\" class=\"x\">", `paragraph["<img src=\"logo.png\" alt=\"\" class=\"x\">"]`},
}

func TestDrawingRoundTrip(t *testing.T) {
	checkKind(t, outlineFragments, drawingTests, drawingReadTests)
}

func TestImagesMarkdownErrors(t *testing.T) {
	img := func(data map[string]any, frags []any) map[string]any {
		return map[string]any{"object": "block", "type": "image", "isVoid": true, "data": data, "fragments": frags}
	}
	file := map[string]any{"kind": "file", "file": "f1"}
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"with a frame", block("images", map[string]any{"withFrame": true}, []any{img(map[string]any{"ref": file}, nil)}), "document.nodes[0].data.withFrame: cannot be written"},
		{"width in em", block("images", nil, []any{img(map[string]any{"ref": file, "width": map[string]any{"unit": "em", "value": 3.0}}, nil)}),
			"document.nodes[0].nodes[0].data.width: only a whole number of pixels or a percentage can be written"},
		{"caption of a list", block("images", nil, []any{img(map[string]any{"ref": file}, []any{map[string]any{"object": "fragment", "fragment": "caption",
			"nodes": []any{block("list-unordered", nil, nil)}}})}), "document.nodes[0].nodes[0].fragments[0].nodes[0]: a caption holds only a paragraph"},
		{"drawing with a caption", map[string]any{"object": "block", "type": "drawing", "isVoid": true, "data": map[string]any{"ref": file},
			"fragments": []any{map[string]any{"object": "fragment", "fragment": "caption", "nodes": []any{}}}}, "document.nodes[0].fragments: a drawing's caption cannot be written"},
		{"inline image in the dark", block("paragraph", nil, []any{map[string]any{"object": "inline", "type": "inline-image", "isVoid": true,
			"data": map[string]any{"ref": file, "refDark": file}}}), "document.nodes[0].nodes[0].data.refDark: cannot be written"},
		{"drawing of a url", map[string]any{"object": "block", "type": "drawing", "isVoid": true, "data": map[string]any{"ref": map[string]any{"kind": "url", "url": "x"}}},
			"document.nodes[0].data.ref: must refer to a file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
