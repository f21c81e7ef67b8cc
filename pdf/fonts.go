package pdf

import (
	_ "embed"
	"fmt"
	"sync"
	"unicode"

	"github.com/signintech/gopdf"
	"github.com/signintech/gopdf/fontmaker/core"
)

// The fonts are DejaVu's (fonts-dejavu-core and fonts-dejavu-extra in
// Debian; licence in fonts/LICENSE): Latin, Greek, Cyrillic, Armenian,
// Georgian, Hebrew, Arabic and many symbols, so most text needs no other
// font. gopdf embeds the subset of glyphs a document uses.
var (
	//go:embed fonts/DejaVuSans.ttf
	sansRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	sansBold []byte
	//go:embed fonts/DejaVuSans-Oblique.ttf
	sansOblique []byte
	//go:embed fonts/DejaVuSansMono.ttf
	sansMono []byte
)

// font names a face of the embedded fonts.
type font uint8

const (
	fontRegular font = iota
	fontBold
	fontItalic
	fontMono
	fontCount
)

// family is the name gopdf knows each face by.
var family = [fontCount]string{"sans", "sans-bold", "sans-oblique", "mono"}

var fontData = [fontCount]*[]byte{&sansRegular, &sansBold, &sansOblique, &sansMono}

// addFonts adds the faces to a document.
func addFonts(doc *gopdf.GoPdf) error {
	for f := range fontCount {
		if err := doc.AddTTFFontData(family[f], *fontData[f]); err != nil {
			return fmt.Errorf("font %s: %w", family[f], err)
		}
	}
	return nil
}

// metrics measures text in the faces of one document; widths are cached
// per face and word, as a document measures the same words many times.
type metrics struct {
	doc    *gopdf.GoPdf
	widths map[measureKey]float64
	// fontChanged says measuring set the document's font since drawing
	// last did.
	fontChanged bool
	// fallbackAdded: the document has the fallback face.
	fallbackAdded bool
}

type measureKey struct {
	f    font
	text string
}

// measureSize is the size text is measured at; widths scale linearly.
const measureSize = 100

// maxCachedWidths bounds the cache, emptied when full, and
// maxCachedText the texts it keeps (words, not lines of code).
const (
	maxCachedWidths = 200_000
	maxCachedText   = 64
)

// width is the width of text in face f at size, in points; runes f lacks
// are measured in the fallback face, as they are drawn.
func (m *metrics) width(f font, text string, size float64) float64 {
	if !isASCII(text) {
		if segs := segments(f, text); len(segs) > 1 || segs[0].fallback {
			w := 0.0
			for _, s := range segs {
				if s.fallback {
					w += m.fallbackWidth(s.text, size)
				} else {
					w += m.faceWidth(f, s.text, size)
				}
			}
			return w
		}
	}
	return m.faceWidth(f, text, size)
}

// faceWidth is the width of text in face f alone.
func (m *metrics) faceWidth(f font, text string, size float64) float64 {
	if text == "" {
		return 0
	}
	if len(text) > maxCachedText {
		m.fontChanged = true
		if err := m.doc.SetFont(family[f], "", size); err != nil {
			return 0
		}
		w, _ := m.doc.MeasureTextWidth(text)
		return w
	}
	k := measureKey{f, text}
	w, ok := m.widths[k]
	if !ok {
		if len(m.widths) >= maxCachedWidths {
			clear(m.widths)
		}
		m.fontChanged = true
		if err := m.doc.SetFont(family[f], "", measureSize); err == nil {
			w, _ = m.doc.MeasureTextWidth(text)
		}
		m.widths[k] = w
	}
	return w * size / measureSize
}

// The fallback face is Droid Sans Fallback (fonts-droid-fallback in Debian,
// Apache-2.0, licence in fonts/LICENSE.DroidSansFallback): Chinese,
// Japanese and Korean, which DejaVu lacks. A rune a face lacks is drawn in
// it; it is added to a document only when one needs it, as gopdf embeds
// the subset of glyphs used.
//
//go:embed fonts/DroidSansFallback.ttf
var fallbackData []byte

const fallbackFamily = "fallback"

// coverage holds the runes each face has, read from their cmaps once.
var coverage = sync.OnceValue(func() [fontCount]map[int]uint {
	var out [fontCount]map[int]uint
	for f := range fontCount {
		var p core.TTFParser
		if err := p.ParseFontData(*fontData[f]); err == nil {
			out[f] = p.Chars()
		}
	}
	return out
})

// covers reports whether face f has a glyph for r. Spaces and controls
// count as covered: they need no glyph of another face.
func covers(f font, r rune) bool {
	if r < 0x80 || unicode.IsSpace(r) || unicode.IsControl(r) {
		return true
	}
	cmap := coverage()[f]
	if cmap == nil {
		return true
	}
	_, ok := cmap[int(r)]
	return ok
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// segment is a part of a text drawn in one face.
type segment struct {
	text     string
	fallback bool
}

// segments splits text into the parts face f draws and those the fallback
// face draws.
func segments(f font, text string) []segment {
	var out []segment
	start, fb := 0, false
	for i, r := range text {
		need := !covers(f, r)
		if i > start && need != fb {
			out = append(out, segment{text[start:i], fb})
			start = i
		}
		fb = need
	}
	return append(out, segment{text[start:], fb})
}

// useFallback adds the fallback face to the document, once.
func (m *metrics) useFallback() error {
	if m.fallbackAdded {
		return nil
	}
	if err := m.doc.AddTTFFontData(fallbackFamily, fallbackData); err != nil {
		return fmt.Errorf("font %s: %w", fallbackFamily, err)
	}
	m.fallbackAdded = true
	return nil
}

// fallbackWidth is the width of text in the fallback face.
func (m *metrics) fallbackWidth(text string, size float64) float64 {
	if m.useFallback() != nil {
		return 0
	}
	m.fontChanged = true
	if err := m.doc.SetFont(fallbackFamily, "", size); err != nil {
		return 0
	}
	w, _ := m.doc.MeasureTextWidth(text)
	return w
}
