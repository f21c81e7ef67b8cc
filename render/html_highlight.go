package render

import (
	"html"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// Chroma's lexers match with backtracking regular expressions (each match
// may run 250 ms before it gives up), so only this much code is
// highlighted, per block and per page; the rest is shown plain.
const (
	maxHighlightBlock = 64 << 10
	maxHighlightPage  = 256 << 10
)

// code writes a fenced or indented code block, highlighted when its
// language is one chroma knows. In a GitBook code frame the frame writes
// the surrounding <div class="code-block">, and says whether lines are
// numbered.
func (r *htmlRenderer) code(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	var lang string
	if f, ok := node.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	var code strings.Builder
	lines := node.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	frame, inFrame := node.Parent().(*formNode)
	inFrame = inFrame && frame.kind == kindCodeFrame
	if !inFrame {
		_, _ = w.WriteString(`<div class="code-block">`)
	}
	numbers := inFrame && strings.EqualFold(frame.attrs["linenumbers"], "true")
	r.writeCode(w, lang, code.String(), numbers)
	if !inFrame {
		_, _ = w.WriteString("</div>\n")
	}
	return ast.WalkSkipChildren, nil
}

// writeCode writes code in a <pre>, as chroma's tokens for lang, each in a
// span of its class, or plain.
func (r *htmlRenderer) writeCode(w util.BufWriter, lang, code string, numbers bool) {
	_, _ = w.WriteString(`<pre class="chroma" tabindex="0"><code`)
	if c := langClass(lang); c != "" {
		_, _ = w.WriteString(` class="language-` + c + `"`)
	}
	_ = w.WriteByte('>')
	tokens := r.highlight(lang, code)
	if tokens == nil {
		tokens = []chroma.Token{{Type: chroma.Text, Value: code}}
	}
	line, start := 1, true
	for _, t := range tokens {
		class := tokenClass(t.Type)
		if class == "w" {
			class = "" // white space: a span would style nothing
		}
		for v := t.Value; v != ""; {
			if numbers && start {
				_, _ = w.WriteString(`<span class="ln" aria-hidden="true">` + strconv.Itoa(line) + `</span>`)
				line++
			}
			part := v
			if i := strings.IndexByte(v, '\n'); i >= 0 {
				part = v[:i+1]
			}
			v = v[len(part):]
			start = strings.HasSuffix(part, "\n")
			if class == "" {
				_, _ = w.WriteString(html.EscapeString(part))
				continue
			}
			_, _ = w.WriteString(`<span class="` + class + `">` + html.EscapeString(part) + `</span>`)
		}
	}
	_, _ = w.WriteString("</code></pre>")
}

// highlight returns code's tokens in lang, nil when lang is unknown or the
// code is not highlighted.
func (r *htmlRenderer) highlight(lang, code string) []chroma.Token {
	if lang == "" || len(code) > maxHighlightBlock || r.highlighted+len(code) > maxHighlightPage {
		return nil
	}
	lexer := lexerIndex()[strings.ToLower(lang)]
	if lexer == nil {
		return nil
	}
	it, err := lexer.Tokenise(nil, code)
	if err != nil {
		return nil
	}
	r.highlighted += len(code)
	return it.Tokens()
}

// lexerIndex maps the names, aliases and file extensions of chroma's
// lexers, in lower case, to the lexer (coalescing tokens). lexers.Get would
// do, but for a name it does not know it matches every lexer's file
// patterns (some milliseconds: 20,000 code blocks of made-up languages
// took minutes). Built once, it is never changed.
var lexerIndex = sync.OnceValue(func() map[string]chroma.Lexer {
	idx := map[string]chroma.Lexer{}
	byExt := map[string]chroma.PrioritisedLexers{}
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, name := range append([]string{c.Name}, c.Aliases...) {
			if k := strings.ToLower(name); idx[k] == nil {
				idx[k] = chroma.Coalesce(l)
			}
		}
		for _, glob := range c.Filenames {
			if ext, ok := strings.CutPrefix(glob, "*."); ok && !strings.ContainsAny(ext, "*?[") {
				byExt[strings.ToLower(ext)] = append(byExt[strings.ToLower(ext)], l)
			}
		}
	}
	for ext, ls := range byExt {
		if idx[ext] == nil {
			sort.Sort(ls)
			idx[ext] = chroma.Coalesce(ls[0])
		}
	}
	return idx
})

// langClass is lang for a "language-" class, "" when it has characters a
// class name should not.
func langClass(lang string) string {
	if len(lang) > 40 {
		return ""
	}
	for _, c := range []byte(lang) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("+-_#.", c) >= 0) {
			return ""
		}
	}
	return lang
}

// tokenClass is the class chroma gives tokens of type t: its own, else its
// sub-category's or category's.
func tokenClass(t chroma.TokenType) string {
	for _, tt := range []chroma.TokenType{t, t.SubCategory(), t.Category()} {
		if c, ok := chroma.StandardTypes[tt]; ok {
			return c
		}
	}
	return ""
}

// HighlightCSS returns the CSS of the code highlighting classes: chroma's
// "github" style for the light theme and "github-dark" for the dark one.
// Light rules are scoped under :root, dark rules under [data-theme=dark],
// and under :root:not([data-theme=light]) when the reader's system
// prefers dark: so the site sets data-theme="light" or "dark" on <html>
// when the reader picks a theme, and nothing to follow the system. Every
// rule states all the properties either theme sets, so no light colour
// shows through in the dark.
func HighlightCSS() string {
	light, dark := styles.Get("github"), styles.Get("github-dark")
	var b strings.Builder
	b.WriteString("/* Code highlighting: chroma's github (light) and github-dark (dark) styles. */\n")
	b.WriteString(".chroma{padding:.75em 1em;overflow-x:auto}\n")
	b.WriteString(".chroma .ln{margin-right:1em;-webkit-user-select:none;user-select:none}\n")
	classes := highlightClasses(light, dark)
	writeTheme(&b, ":root", light, classes)
	writeTheme(&b, "[data-theme=dark]", dark, classes)
	b.WriteString("@media (prefers-color-scheme:dark){\n")
	writeTheme(&b, ":root:not([data-theme=light])", dark, classes)
	b.WriteString("}\n")
	return b.String()
}

// cssProps are the properties a token rule may set.
const (
	propColor = 1 << iota
	propBackground
	propBold
	propItalic
	propUnderline
)

// highlightClass is a token type styled unlike plain text, and which
// properties its rules set.
type highlightClass struct {
	t     chroma.TokenType
	props int
}

// highlightClasses lists the token types either style sets apart from
// plain text, ordered by class for a stable stylesheet.
func highlightClasses(styles ...*chroma.Style) []highlightClass {
	var out []highlightClass
	for t, class := range chroma.StandardTypes {
		if class == "" || chroma.CodeLine <= t && t <= chroma.Background {
			continue // plain text, and structural types (background, line numbers…) written apart
		}
		props := 0
		for _, s := range styles {
			props |= entryProps(s.Get(t), s.Get(chroma.Text))
		}
		if props != 0 {
			out = append(out, highlightClass{t, props})
		}
	}
	slices.SortFunc(out, func(a, b highlightClass) int {
		return strings.Compare(chroma.StandardTypes[a.t], chroma.StandardTypes[b.t])
	})
	return out
}

// entryProps are the properties in which e differs from plain text.
func entryProps(e, text chroma.StyleEntry) int {
	props := 0
	if e.Colour != text.Colour {
		props |= propColor
	}
	if e.Background != text.Background {
		props |= propBackground
	}
	if e.Bold != text.Bold {
		props |= propBold
	}
	if e.Italic != text.Italic {
		props |= propItalic
	}
	if e.Underline != text.Underline {
		props |= propUnderline
	}
	return props
}

// writeTheme writes the rules of style under scope.
func writeTheme(b *strings.Builder, scope string, style *chroma.Style, classes []highlightClass) {
	text := style.Get(chroma.Text)
	bg := style.Get(chroma.Background)
	wrapper := text
	wrapper.Background = bg.Background
	b.WriteString(scope + " .chroma{" + cssDecls(wrapper, propColor|propBackground) + "}\n")
	ln := style.Get(chroma.LineNumbers)
	b.WriteString(scope + " .chroma .ln{" + cssDecls(ln, propColor) + "}\n")
	for _, c := range classes {
		e := style.Get(c.t)
		if e.Background == bg.Background {
			e.Background = text.Background
		}
		b.WriteString(scope + " .chroma ." + chroma.StandardTypes[c.t] + "{" + cssDecls(e, c.props) + "}\n")
	}
}

// cssDecls are the declarations of props for e, each stated even when e
// leaves it unset.
func cssDecls(e chroma.StyleEntry, props int) string {
	var d []string
	if props&propColor != 0 {
		d = append(d, "color:"+cssColour(e.Colour, "inherit"))
	}
	if props&propBackground != 0 {
		d = append(d, "background-color:"+cssColour(e.Background, "transparent"))
	}
	if props&propBold != 0 {
		d = append(d, "font-weight:"+map[bool]string{true: "bold", false: "inherit"}[e.Bold == chroma.Yes])
	}
	if props&propItalic != 0 {
		d = append(d, "font-style:"+map[bool]string{true: "italic", false: "inherit"}[e.Italic == chroma.Yes])
	}
	if props&propUnderline != 0 {
		d = append(d, "text-decoration:"+map[bool]string{true: "underline", false: "none"}[e.Underline == chroma.Yes])
	}
	return strings.Join(d, ";")
}

func cssColour(c chroma.Colour, unset string) string {
	if !c.IsSet() {
		return unset
	}
	return c.String()
}
