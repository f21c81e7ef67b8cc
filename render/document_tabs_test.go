package render

import "testing"

// tabsTests are markdown with tabs, as Git Sync writes it, and the outline
// of its document; Markdown writes the document back byte for byte.
var tabsTests = []struct{ name, md, want string }{
	{"tabs", "{% tabs %}\n{% tab title=\"Linux\" %}\nmake\n{% endtab %}\n\n{% tab title=\"Mac\" %}\nbrew\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"Linux"}[paragraph["make"]] tabs-item{"title":"Mac"}[paragraph["brew"]]]`},
	{"blocks in a tab", "{% tabs %}\n{% tab title=\"Go\" %}\n## Build\n\n```go\nx := 1\n```\n\n> q\n\n{% hint style=\"info\" %}\nh\n{% endhint %}\n\n![i](https://i.example/a.png)\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"Go"}[heading-2["Build"] code{"syntax":"go"}[code-line["x := 1"]] blockquote[paragraph["q"]] hint{"style":"info"}[paragraph["h"]] ` +
			`images[image{"alt":"i","ref":{"kind":"url","url":"https://i.example/a.png"}}]]]`},
	{"title escaped", "{% tabs %}\n{% tab title=\"a \\\"b\\\" \\\\ &amp; c&#10;d\" %}\nx\n{% endtab %}\n{% endtabs %}\n",
		`tabs[tabs-item{"title":"a \"b\" \\ & c\nd"}[paragraph["x"]]]`},
	{"empty tab", "{% tabs %}\n{% tab title=\"\" %}\n{% endtab %}\n{% endtabs %}\n", `tabs[tabs-item{"title":""}[paragraph[""]]]`},
	{"no tabs", "{% tabs %}\n{% endtabs %}\n", `tabs[]`},
	{"tags as text", "\\{% tabs %}\n\n\\{% tab title=\"A\" %}\n\n\\{% endtab %}\n\n\\{% endtabs %}\n",
		`paragraph["{% tabs %}"] paragraph["{% tab title=\"A\" %}"] paragraph["{% endtab %}"] paragraph["{% endtabs %}"]`},
}

// tabsReadTests are other markdown with tabs.
var tabsReadTests = []struct{ name, md, want string }{
	{"no blank line between tabs", "{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n{% tab title=\"B\" %}\nb\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"A"}[paragraph["a"]] tabs-item{"title":"B"}[paragraph["b"]]]`},
	{"end tag of a tab left out", "{% tabs %}\n{% tab title=\"A\" %}\na\n{% tab title=\"B\" %}\nb\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"A"}[paragraph["a"]] tabs-item{"title":"B"}[paragraph["b"]]]`},
	{"text between tabs joins the tab before", "{% tabs %}\nfirst\n{% tab title=\"A\" %}\na\n{% endtab %}\nafter\n{% endtabs %}",
		`tabs[tabs-item{"title":""}[paragraph["first"]] tabs-item{"title":"A"}[paragraph["a"] paragraph["after"]]]`},
	{"a tab outside tabs is text", "{% tab title=\"A\" %}\na\n{% endtab %}", `paragraph["{% tab title=\"A\" %} a {% endtab %}"]`},
	{"table in a tab is rows", "{% tabs %}\n{% tab title=\"A\" %}\n| a | b |\n| - | - |\n| 1 | 2 |\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"A"}[paragraph["a | b"] paragraph["1 | 2"]]]`},
	{"empty table cell in a tab", "{% tabs %}\n{% tab title=\"A\" %}\n| |\n| - |\n{% endtab %}\n{% endtabs %}", `tabs[tabs-item{"title":"A"}[paragraph[""]]]`},
	{"in a list item it is titles and content", "- {% tabs %}\n  {% tab title=\"A\" %}\n  a\n  {% endtab %}\n  {% endtabs %}",
		`list-unordered[list-item[paragraph["A"] paragraph["a"]]]`},
	{"in a hint it is titles and content", "{% hint style=\"info\" %}\n{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n{% endtabs %}\n{% endhint %}",
		`hint{"style":"info"}[paragraph["A"] paragraph["a"]]`},
	{"expandable in a tab is its title and body", "{% tabs %}\n{% tab title=\"A\" %}\n<details>\n\n<summary>T</summary>\n\nx\n\n</details>\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"A"}[paragraph["T"] paragraph["x"]]]`},
	{"end tag in fenced code", "{% tabs %}\n{% tab title=\"A\" %}\n```\n{% endtab %}\n{% endtabs %}\n```\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"A"}[code[code-line["{% endtab %}"] code-line["{% endtabs %}"]]]]`},
}

func TestTabsRoundTrip(t *testing.T) { checkKind(t, outline, tabsTests, tabsReadTests) }
