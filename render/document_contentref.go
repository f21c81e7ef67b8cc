package render

import "fmt"

// refBlock converts a tag whose body is derived from it (refTags).
func (c *converter) refBlock(n *formNode, at place) []any {
	switch n.tag {
	case "content-ref":
		return c.contentRef(n, at)
	}
	return c.openAPI(n, at)
}

// contentRef converts a content reference: a content-ref block of what
// its url resolves to, as a link's target resolves. The link Git Sync
// writes in its body is not kept: the reference names its target, and
// Markdown writes the link again. Where the schema allows no content-ref
// block it is its body, that link.
func (c *converter) contentRef(n *formNode, at place) []any {
	if !allowed("content-ref", at) {
		return c.blocks(n, at)
	}
	return []any{map[string]any{"object": "block", "type": "content-ref", "isVoid": true,
		"data": map[string]any{"ref": c.ref(n.attrs["url"], false)}}}
}

// contentRefMD writes a content reference as Git Sync does: the tag, a
// link to the target called by its last segment, the end tag.
func contentRefMD(out *[]chunk, data map[string]any, path *nodePath, at place) error {
	target, ok := refTarget(data["ref"])
	if !ok {
		return fmt.Errorf("%s.data.ref: must refer to a page, a file, an anchor or a URL", path)
	}
	if !allowed("content-ref", at) {
		return fmt.Errorf("%s: the schema allows no content-ref block here", path)
	}
	*out = append(*out, chunk{lines: []string{`{% content-ref url="` + tagValue(target) + `" %}`, bodyLink(target), "{% endcontent-ref %}"}})
	return nil
}

// bodyLink is the link Git Sync writes in the body of a block that refers
// to target: "[name](target)", never an autolink, however its text reads.
func bodyLink(target string) string {
	label := &iwriter{ctx: ctxPara, plain: true}
	label.text(lastSegment(target), edges{})
	return "[" + label.b.String() + "](" + (&iwriter{ctx: ctxPara}).dest(target) + ")"
}
