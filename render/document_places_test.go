package render

import (
	"strings"
	"testing"
)

// TestBlocksInEveryContainer puts each block kind of document_tags.go,
// document_images.go and document_math.go in every container markdown
// has: the document is valid against the reference wherever it lands (the
// schema allows each block in some containers only), and goes round
// through markdown unchanged.
func TestBlocksInEveryContainer(t *testing.T) {
	ref := reference(t)
	indent := func(md, prefix, first string) string {
		lines := strings.Split(strings.TrimSuffix(md, "\n"), "\n")
		for i, l := range lines {
			p := prefix
			if i == 0 {
				p = first
			}
			if l != "" || prefix == "> " {
				lines[i] = strings.TrimRight(p+l, " ")
			}
		}
		return strings.Join(lines, "\n") + "\n"
	}
	containers := map[string]func(string) string{
		"list item": func(md string) string { return indent(md, "  ", "- ") },
		"quote":     func(md string) string { return indent(md, "> ", "> ") },
		"hint":      func(md string) string { return "{% hint style=\"info\" %}\n" + md + "{% endhint %}\n" },
		"tab": func(md string) string {
			return "{% tabs %}\n{% tab title=\"A\" %}\n" + md + "{% endtab %}\n{% endtabs %}\n"
		},
		"expandable": func(md string) string { return "<details>\n\n<summary>T</summary>\n\n" + md + "\n</details>\n" },
		"if":         func(md string) string { return "{% if a %}\n" + md + "{% endif %}\n" },
	}
	var kinds [][]struct{ name, md, want string }
	kinds = append(kinds, embedTests, contentRefTests, imagesTests, drawingTests, mathTests, includeTests, openAPITests, integrationTests, ifTests, promptTests)
	for _, tests := range kinds {
		for _, tt := range tests {
			for cname, wrap := range containers {
				md := wrap(tt.md)
				t.Run(tt.name+" in a "+cname, func(t *testing.T) {
					doc := Document(md, testResolve)
					if ref != nil {
						if err := ref.CheckSchema("JSONDocument", doc); err != nil {
							t.Errorf("%q: %v", md, err)
						}
					}
					roundTrip(t, md, testResolve, resolveIDs)
					roundTrip(t, md, nil, nil)
				})
			}
		}
	}
}
