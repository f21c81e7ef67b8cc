package render

import (
	"fmt"
	"regexp"
)

// appReusable is how Git Sync writes an include of another space's
// reusable content: its URL in the app.
var appReusable = regexp.MustCompile(`^https://app\.gitbook\.com/s/([A-Za-z0-9_-]+)/~/reusable/([A-Za-z0-9_-]+)/?$`)

// include converts "{% include "…" %}": a reusable-content block. Quire
// keeps no reusable contents, so what names one is kept as written: the
// space and id of an app URL, else the path Git Sync wrote (a file under
// .gitbook/includes/) as the reusable content's id. Where the schema
// allows no reusable-content block it stays the text it is.
func (c *converter) include(n *formNode, at place) []any {
	if !allowed("reusable-content", at) {
		return c.tagText(n, at)
	}
	src := n.attrs["src"]
	ref := map[string]any{"kind": "reusable-content", "reusableContent": src}
	if m := appReusable.FindStringSubmatch(src); m != nil {
		ref = map[string]any{"kind": "reusable-content", "reusableContent": m[2], "space": m[1]}
	}
	return []any{map[string]any{"object": "block", "type": "reusable-content", "isVoid": true, "data": map[string]any{"ref": ref}}}
}

// includeMD writes a reusable-content block as include reads it.
func includeMD(out *[]chunk, data map[string]any, path *nodePath, at place) error {
	ref, _ := data["ref"].(map[string]any)
	id, _ := ref["reusableContent"].(string)
	space, hasSpace := ref["space"].(string)
	if ref["kind"] != "reusable-content" || id == "" {
		return fmt.Errorf("%s.data.ref: must refer to a reusable content", path)
	}
	if !allowed("reusable-content", at) {
		return fmt.Errorf("%s: the schema allows no reusable-content block here", path)
	}
	src := id
	switch {
	case hasSpace:
		src = "https://app.gitbook.com/s/" + space + "/~/reusable/" + id + "/"
		if m := appReusable.FindStringSubmatch(src); m == nil || m[1] != space || m[2] != id {
			return fmt.Errorf("%s.data.ref: a reusable content of another space is named by letters, digits, \"-\" and \"_\"", path)
		}
	case appReusable.MatchString(id):
		return fmt.Errorf("%s.data.ref.reusableContent: an app URL names a space", path)
	}
	*out = append(*out, chunk{lines: []string{`{% include "` + tagValue(src) + `" %}`}})
	return nil
}
