// Package web holds what the published sites (package site) and the app
// (package app) both show: the base stylesheet with the code highlighting
// styles, the theme script that runs before the first paint, and the
// serving of embedded assets at versioned URLs. It knows neither of them.
package web

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"

	"github.com/quiredocs/quire/render"
)

//go:embed assets/site.css
var siteCSS []byte

// BaseCSS is the stylesheet of published pages and of the app: layout,
// rendered content blocks, light and dark themes, and the styles of
// highlighted code.
func BaseCSS() []byte {
	return append(append(append([]byte{}, siteCSS...), '\n'), render.HighlightCSS()...)
}

// ThemeScript runs before the first paint, so a dark-theme reader never
// sees the light theme flash: the stored choice, else the system's. The
// theme buttons of sites and the app keep the choice under the same key.
const ThemeScript = `(function(){var t;try{t=localStorage.getItem("quire-theme")}catch(e){}` +
	`if(t!=="light"&&t!=="dark"){t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}` +
	`document.documentElement.setAttribute("data-theme",t)})()`

// ThemeScriptHash lets a page's Content-Security-Policy allow ThemeScript
// inline and nothing else inline.
var ThemeScriptHash = func() string {
	sum := sha256.Sum256([]byte(ThemeScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()
