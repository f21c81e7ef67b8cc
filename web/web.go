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
// sees the light theme flash: the stored choice, else the page's
// data-default-theme (a site's customized default), else the system's. Once
// the page is read, it makes the #theme-toggle button of sites and the app
// flip the theme and keep the choice.
const ThemeScript = `(function(){var d=document.documentElement,t;try{t=localStorage.getItem("quire-theme")}catch(e){}` +
	`if(t!=="light"&&t!=="dark"){t=d.getAttribute("data-default-theme")}` +
	`if(t!=="light"&&t!=="dark"){t=matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}` +
	`d.setAttribute("data-theme",t);` +
	`document.addEventListener("DOMContentLoaded",function(){var b=document.getElementById("theme-toggle");if(!b)return;` +
	`var s=function(){b.setAttribute("aria-pressed",String(d.getAttribute("data-theme")==="dark"))};s();` +
	`b.addEventListener("click",function(){var n=d.getAttribute("data-theme")==="dark"?"light":"dark";d.setAttribute("data-theme",n);` +
	`try{localStorage.setItem("quire-theme",n)}catch(e){}s()})})})()`

// ThemeScriptHash lets a page's Content-Security-Policy allow ThemeScript
// inline and nothing else inline.
var ThemeScriptHash = func() string {
	sum := sha256.Sum256([]byte(ThemeScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()
