package render

import "testing"

// includeTests are includes of reusable content as Git Sync writes them.
var includeTests = []struct{ name, md, want string }{
	{"a path", "{% include \"../.gitbook/includes/example-hint-text.md\" %}\n",
		`reusable-content{"ref":{"kind":"reusable-content","reusableContent":"../.gitbook/includes/example-hint-text.md"}}`},
	{"another space's", "{% include \"https://app.gitbook.com/s/aEnK0ZXmUbJzqQrTjFyb/~/reusable/vX1KAy0t1XuYJaGsK28T/\" %}\n",
		`reusable-content{"ref":{"kind":"reusable-content","reusableContent":"vX1KAy0t1XuYJaGsK28T","space":"aEnK0ZXmUbJzqQrTjFyb"}}`},
	{"escaped", "{% include \"a \\\"b\\\" &amp; c.md\" %}\n", `reusable-content{"ref":{"kind":"reusable-content","reusableContent":"a \"b\" & c.md"}}`},
	{"in an expandable", "<details>\n\n<summary>T</summary>\n\n{% include \".gitbook/includes/x.md\" %}\n\n</details>\n",
		`expandable expandable-title{paragraph["T"]} expandable-body{reusable-content{"ref":{"kind":"reusable-content","reusableContent":".gitbook/includes/x.md"}}}`},
	{"tag as text", "\\{% include \".gitbook/includes/x.md\" %}\n", `paragraph["{% include \".gitbook/includes/x.md\" %}"]`},
}

// includeReadTests are other markdown with includes.
var includeReadTests = []struct{ name, md, want string }{
	{"without the last slash", "{% include \"https://app.gitbook.com/s/S1/~/reusable/R1\" %}", `reusable-content{"ref":{"kind":"reusable-content","reusableContent":"R1","space":"S1"}}`},
	{"in a list item it is text", "- {% include \".gitbook/includes/x.md\" %}", `list-unordered[list-item[paragraph["{% include \".gitbook/includes/x.md\" %}"]]]`},
	{"in a hint it is text", "{% hint style=\"info\" %}\n{% include \"x.md\" %}\n{% endhint %}", `hint{"style":"info"}[paragraph["{% include \"x.md\" %}"]]`},
	{"unquoted it is text", "{% include x.md %}", `paragraph["{% include x.md %}"]`},
	{"empty it is text", "{% include \"\" %}", `paragraph["{% include \"\" %}"]`},
}

func TestIncludeRoundTrip(t *testing.T) {
	checkKind(t, outlineFragments, includeTests, includeReadTests)
}

func TestIncludeMarkdownErrors(t *testing.T) {
	rc := func(ref map[string]any) map[string]any {
		return map[string]any{"object": "block", "type": "reusable-content", "isVoid": true, "data": map[string]any{"ref": ref}}
	}
	for _, tt := range []struct {
		name string
		node map[string]any
		want string
	}{
		{"no id", rc(map[string]any{"kind": "reusable-content"}), "document.nodes[0].data.ref: must refer to a reusable content"},
		{"space with a slash", rc(map[string]any{"kind": "reusable-content", "reusableContent": "r", "space": "a/b"}),
			`document.nodes[0].data.ref: a reusable content of another space is named by letters, digits, "-" and "_"`},
		{"an app URL as id", rc(map[string]any{"kind": "reusable-content", "reusableContent": "https://app.gitbook.com/s/S/~/reusable/R/"}),
			"document.nodes[0].data.ref.reusableContent: an app URL names a space"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Markdown(map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{tt.node}})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
}
