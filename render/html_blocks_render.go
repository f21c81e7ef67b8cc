package render

import (
	"fmt"
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// registerBlocks registers the renderers of blockForms' nodes.
func (r *htmlRenderer) registerBlocks(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(kindHint, hint)
	reg.Register(kindTabs, tabs)
	reg.Register(kindTab, tab)
	reg.Register(kindCodeFrame, codeFrame)
	reg.Register(kindEmbed, r.embed)
	reg.Register(kindDetails, details)
	reg.Register(kindSummary, wrap(`<summary>`, "</summary>\n"))
	reg.Register(kindFigure, r.figure)
	reg.Register(kindFigures, figures)
	reg.Register(kindFigCaption, wrap(`<figcaption>`, "</figcaption>\n"))
	reg.Register(kindStepper, wrap(`<ol class="stepper">`+"\n", "</ol>\n"))
	reg.Register(kindStep, wrap(`<li class="step">`+"\n", "</li>\n"))
	reg.Register(kindColumns, wrap(`<div class="columns">`+"\n", "</div>\n"))
	reg.Register(kindColumn, wrap(`<div class="column">`+"\n", "</div>\n"))
	reg.Register(kindUpdates, wrap(`<div class="updates">`+"\n", "</div>\n"))
	reg.Register(kindUpdate, updateBlock)
	reg.Register(kindDropped, skip)
	reg.Register(kindIf, r.adaptive)
	reg.Register(kindMathBlock, mathHTML)
	reg.Register(kindInlineMath, mathHTML)
}

// wrap renders a node as its content between open and end.
func wrap(open, end string) renderer.NodeRendererFunc {
	return func(w util.BufWriter, _ []byte, _ ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			_, _ = w.WriteString(open)
		} else {
			_, _ = w.WriteString(end)
		}
		return ast.WalkContinue, nil
	}
}

// hintStyles are the hint styles; any other is info, so that a style
// attribute never reaches the markup as written.
var hintStyles = map[string]string{"info": "Info", "success": "Success", "warning": "Warning", "danger": "Danger"}

func hint(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	b := node.(*formNode)
	style := strings.ToLower(b.attrs["style"])
	label, ok := hintStyles[style]
	if !ok {
		style, label = "info", "Info"
	}
	if l := b.attrs["label"]; l != "" { // a GitHub alert's own name
		label = l
	}
	fmt.Fprintf(w, `<div class="hint hint-%s" role="note" aria-label="%s">`+"\n", style, html.EscapeString(label))
	return ast.WalkContinue, nil
}

// tabs writes the tab list, hidden until the site's script shows it, then
// the panels (the tabs' own nodes).
func tabs(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<div class="tabs">` + "\n" + `<div class="tabs-list" role="tablist" hidden>`)
	first := true
	for c := node.FirstChild(); c != nil; c = c.NextSibling() {
		t, ok := c.(*formNode)
		if !ok || t.kind != kindTab {
			continue
		}
		selected, index := "false", "-1"
		if first {
			selected, index, first = "true", "0", false
		}
		id := html.EscapeString(t.id)
		fmt.Fprintf(w, `<button type="button" class="tab" role="tab" id="%s" aria-controls="%s-panel" aria-selected="%s" tabindex="%s">%s</button>`,
			id, id, selected, index, html.EscapeString(t.attrs["title"]))
	}
	_, _ = w.WriteString("</div>\n")
	return ast.WalkContinue, nil
}

func tab(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	b := node.(*formNode)
	id := html.EscapeString(b.id)
	fmt.Fprintf(w, `<div class="tab-panel" role="tabpanel" id="%s-panel" aria-labelledby="%s" tabindex="0">`+"\n"+
		`<div class="tab-title">%s</div>`+"\n", id, id, html.EscapeString(b.attrs["title"]))
	return ast.WalkContinue, nil
}

// codeFrame writes a code block's frame and title bar; the code inside
// writes only its <pre> (see htmlRenderer.code).
func codeFrame(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<div class="code-block">`)
	if t := node.(*formNode).attrs["title"]; t != "" {
		fmt.Fprintf(w, `<div class="code-title">%s</div>`, html.EscapeString(t))
	}
	_ = w.WriteByte('\n')
	return ast.WalkContinue, nil
}

func details(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</details>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<details class="expandable"`)
	if _, open := node.(*formNode).attrs["open"]; open {
		_, _ = w.WriteString(" open")
	}
	_, _ = w.WriteString(">\n")
	return ast.WalkContinue, nil
}

// embed writes a card linking to the URL or file embedded, never the page
// itself: an iframe would run another site's script in ours.
func (r *htmlRenderer) embed(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	b := node.(*formNode)
	if !entering {
		if b.HasChildren() {
			_, _ = w.WriteString("</div>")
		}
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	dest := b.attrs["url"]
	if b.tag == "file" {
		dest = b.attrs["src"]
	}
	t := r.target(dest, false)
	name := embedName(dest)
	class := "embed"
	if t.fileID != "" || b.tag == "file" {
		class = "embed embed-file"
		if n := r.file(t.fileID); n != nil && n.Name != "" {
			name = n.Name
		}
	}
	fmt.Fprintf(w, `<div class="%s">`, class)
	r.openLink(w, t, "", "embed-card")
	fmt.Fprintf(w, `<span class="embed-title">%s</span><span class="embed-url">%s</span>`,
		html.EscapeString(name), html.EscapeString(dest))
	r.closeLink(w)
	if b.HasChildren() {
		_, _ = w.WriteString(`<div class="embed-caption">` + "\n")
	}
	return ast.WalkContinue, nil
}

// embedName is what an embed card is called: the URL's host, or the last
// segment of a path.
func embedName(dest string) string {
	rest, _, _ := strings.Cut(dest, "#")
	rest, _, _ = strings.Cut(rest, "?")
	if i := strings.Index(rest, "//"); i >= 0 {
		host, _, _ := strings.Cut(rest[i+2:], "/")
		return host
	}
	return rest[strings.LastIndex(rest, "/")+1:]
}

func (r *htmlRenderer) figure(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</figure>\n")
		return ast.WalkContinue, nil
	}
	a := node.(*formNode).attrs
	_, _ = w.WriteString(`<figure class="figure">`)
	r.writeImage(w, r.target(a["src"], true), a["alt"], a["title"], a) // a dark-mode source is not written
	_ = w.WriteByte('\n')
	return ast.WalkContinue, nil
}

// figures writes a gallery: its figures side by side, aligned as written.
func figures(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	class := "figures"
	if a := node.(*formNode).attrs["align"]; a == "left" || a == "center" || a == "right" {
		class += " figures-" + a
	}
	fmt.Fprintf(w, `<div class="%s">`+"\n", class)
	return ast.WalkContinue, nil
}

// adaptive writes adaptive content's blocks when the reader sees them, and
// nothing else: neither its tags nor, when hidden, a trace of it.
func (r *htmlRenderer) adaptive(_ util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering && r.opt.Sees != nil && !r.opt.Sees(node.(*formNode).attrs["expression"]) {
		return ast.WalkSkipChildren, nil
	}
	return ast.WalkContinue, nil
}

// mathHTML writes math's TeX as written, escaped, for the site's script to
// typeset: a block in a <div>, inline math in a <span>.
func mathHTML(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	f, _ := MathOf(node, src)
	if _, inline := node.(*mathInline); inline {
		fmt.Fprintf(w, `<span class="math">%s</span>`, html.EscapeString(f))
	} else {
		fmt.Fprintf(w, `<div class="math math-block">%s</div>`+"\n", html.EscapeString(f))
	}
	return ast.WalkSkipChildren, nil
}

// updateBlock writes an update: its date, as written, above its content.
func updateBlock(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</div>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<div class="update">` + "\n")
	if d := node.(*formNode).attrs["date"]; d != "" {
		_, _ = w.WriteString(`<p class="update-date">` + html.EscapeString(d) + "</p>\n")
	}
	return ast.WalkContinue, nil
}
