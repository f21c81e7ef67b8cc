package pdf

import (
	_ "embed"
	"fmt"

	"github.com/signintech/gopdf"
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

// width is the width of text in face f at size, in points.
func (m *metrics) width(f font, text string, size float64) float64 {
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
