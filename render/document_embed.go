package render

import (
	"fmt"
	"strings"
)

// embed converts an embed or a file: an embed block of its URL, or a file
// block of the file its src resolves to, with its caption (the markdown
// before the end tag) in a "caption" fragment. Where the schema allows no
// such block it is a paragraph of a link to its target, then its caption;
// a file whose src is no file of the space stays the text it is.
func (c *converter) embed(n *formNode, at place) []any {
	typ, target := n.tag, n.attrs["url"]
	data := map[string]any{"url": target}
	if typ == "file" {
		target = n.attrs["src"]
		ref := c.fileRef(target)
		if ref["kind"] != "file" {
			return c.tagText(n, at)
		}
		data = map[string]any{"ref": ref}
	} else if w, ok := n.attrs["fullwidth"]; ok && (w == "true" || w == "false") {
		data["fullWidth"] = w == "true"
	}
	if !allowed(typ, at) {
		return append([]any{c.linkPara(target, target)}, c.blocks(n, at)...)
	}
	b := map[string]any{"object": "block", "type": typ, "isVoid": true, "data": data}
	if caption := c.blocks(n, inQuote); len(caption) > 0 {
		b["fragments"] = []any{map[string]any{"object": "fragment", "fragment": "caption", "nodes": caption}}
	}
	return []any{b}
}

// embedMD writes an embed or a file as Git Sync does: its tag, and when it
// has a caption, the caption and the end tag.
func embedMD(out *[]chunk, m map[string]any, typ string, data map[string]any, path *nodePath, at place) error {
	var open string
	switch typ {
	case "embed":
		url, ok := data["url"].(string)
		if !ok {
			return fmt.Errorf("%s.data.url: must be a string", path)
		}
		open = `{% embed url="` + tagValue(url) + `"`
		if w, ok := data["fullWidth"].(bool); ok {
			open += fmt.Sprintf(` fullWidth="%t"`, w)
		}
	case "file":
		ref, _ := data["ref"].(map[string]any)
		target, ok := refTarget(ref)
		if !ok || ref["kind"] != "file" {
			return fmt.Errorf("%s.data.ref: must refer to a file", path)
		}
		open = `{% file src="` + tagValue(target) + `"`
	}
	if !allowed(typ, at) {
		return fmt.Errorf("%s: the schema allows no %s block here", path, typ)
	}
	caption, err := captionMD(m, path)
	if err != nil {
		return err
	}
	lines := []string{open + " %}"}
	if len(caption) > 0 {
		lines = append(append(lines, caption...), "{% end"+typ+" %}")
	}
	*out = append(*out, chunk{lines: lines})
	return nil
}

// captionMD writes the blocks of a block's "caption" fragment, as
// Document reads a caption (in a blockquote's place); any other fragment
// cannot be written.
func captionMD(m map[string]any, path *nodePath) ([]string, error) {
	frags, err := fragmentsOf(m, path)
	if err != nil {
		return nil, err
	}
	var inner []chunk
	for _, f := range frags {
		if f.name != "caption" {
			return nil, fmt.Errorf("%s: only a caption fragment can be written", f.path)
		}
		if err := blocksMD(&inner, f.nodes, f.path.field("nodes"), inQuote); err != nil {
			return nil, err
		}
	}
	if len(inner) == 1 && inner[0].empty {
		inner = nil
	}
	return joinChunks(inner, inQuote), nil
}

// lastSegment is what Git Sync calls a target in the link it writes in a
// block's body: a URL whole, a path by its last segment.
func lastSegment(target string) string {
	if strings.Contains(target, "://") {
		return target
	}
	t := strings.TrimSuffix(target, "/")
	if i := strings.LastIndex(t, "/"); i >= 0 && i+1 < len(t) {
		return t[i+1:]
	}
	if t == "" {
		return target
	}
	return t
}

// fileRef is the reference of a block that shows a file (a file, a
// drawing): as an image's, and without a resolver "/files/<id>", as
// Markdown writes a file, is that file.
func (c *converter) fileRef(target string) map[string]any {
	ref := c.ref(target, true)
	if id, ok := strings.CutPrefix(target, "/files/"); ok && c.resolve == nil && id != "" && !strings.ContainsAny(id, "/?#") {
		ref = map[string]any{"kind": "file", "file": id}
	}
	return ref
}
