package render

import "testing"

// expandableTests are markdown with expandables, as Git Sync writes it, and
// the outline of its document (title fragment, then body fragment);
// Markdown writes the document back byte for byte.
var expandableTests = []struct{ name, md, want string }{
	{"expandable", "<details>\n\n<summary>More</summary>\n\nHidden text.\n\n</details>\n", `expandable[paragraph["More"]] [paragraph["Hidden text."]]`},
	{"open", "<details open>\n\n<summary>T</summary>\n\nx\n\n</details>\n", `expandable{"defaultExpanded":true}[paragraph["T"]] [paragraph["x"]]`},
	{"marks in the title", "<details>\n\n<summary>More *here* and `code`</summary>\n\nx\n\n</details>\n",
		`expandable[paragraph["More " italic:"here" " and " code:"code"]] [paragraph["x"]]`},
	{"blocks in the body", "<details>\n\n<summary>T</summary>\n\n## H\n\n```go\nx := 1\n```\n\n> q\n\n{% hint style=\"info\" %}\nh\n{% endhint %}\n\n![i](https://i.example/a.png)\n\n</details>\n",
		`expandable[paragraph["T"]] [heading-2["H"] code{"syntax":"go"}[code-line["x := 1"]] blockquote[paragraph["q"]] hint{"style":"info"}[paragraph["h"]] ` +
			`images[image{"alt":"i","ref":{"kind":"url","url":"https://i.example/a.png"}}]]`},
	{"empty", "<details>\n\n<summary></summary>\n\n</details>\n", `expandable[paragraph[""]] [paragraph[""]]`},
	{"tags as text", "\\<details>\n\n\\<summary>T\\</summary>\n\n\\</details>\n", `paragraph["<details>"] paragraph["<summary>T</summary>"] paragraph["</details>"]`},
}

// expandableReadTests are other markdown with expandables.
var expandableReadTests = []struct{ name, md, want string }{
	{"summary on the details line", "<details><summary>T</summary>\nx\n</details>", `expandable[paragraph["T"]] [paragraph["x"]]`},
	{"no summary", "<details>\n\nx\n\n</details>", `expandable[paragraph[""]] [paragraph["x"]]`},
	{"without its end tag it is text", "<details>\n\nx", `paragraph["<details>"] paragraph["x"]`},
	{"in a list item it is its title and body", "- <details>\n\n  <summary>T</summary>\n\n  x\n\n  </details>", `list-unordered[list-item[paragraph["T"] paragraph["x"]]]`},
	{"in an expandable it is its title and body", "<details>\n\n<summary>A</summary>\n\n<details>\n\n<summary>B</summary>\n\nx\n\n</details>\n\n</details>",
		`expandable[paragraph["A"]] [paragraph["B"] paragraph["x"]]`},
	{"in a hint it is its title and body", "{% hint style=\"info\" %}\n<details>\n\n<summary>T</summary>\n\n```\nc\n```\n\n</details>\n{% endhint %}",
		`hint{"style":"info"}[paragraph["T"] paragraph[code:"c"]]`},
	{"end tag in fenced code", "<details>\n\n<summary>T</summary>\n\n```\n</details>\n```\n\n</details>", `expandable[paragraph["T"]] [code[code-line["</details>"]]]`},
	{"list ending in an empty item", "<details>\n\n<summary>T</summary>\n\n- a\n-\n\nb\n\n</details>",
		`expandable[paragraph["T"]] [list-unordered[list-item[paragraph["a"]] list-item[paragraph[""]]] paragraph["b"]]`},
}

// outlineBlock is outline, with an expandable's fragments after it.
func outlineBlock(nodes []any) string {
	s := ""
	for i, n := range nodes {
		if i > 0 {
			s += " "
		}
		m := n.(map[string]any)
		if m["type"] != "expandable" {
			s += outline([]any{n})
			continue
		}
		s += outline([]any{map[string]any{"object": "block", "type": "expandable", "data": m["data"]}})
		for j, f := range m["fragments"].([]any) {
			if j > 0 {
				s += " "
			}
			s += "[" + outline(f.(map[string]any)["nodes"].([]any)) + "]"
		}
	}
	return s
}

func TestExpandableRoundTrip(t *testing.T) {
	checkKind(t, outlineBlock, expandableTests, expandableReadTests)
}
