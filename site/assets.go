package site

import (
	"embed"

	"github.com/quiredocs/quire/web"
)

//go:embed assets/site.js
var assetFiles embed.FS

// loadAssets returns the sites' assets: the shared base stylesheet (with
// the code highlighting styles) and the sites' script.
func loadAssets() web.Assets {
	js, err := assetFiles.ReadFile("assets/site.js")
	if err != nil {
		panic(err) // embedded at build time
	}
	return web.NewAssets(map[string][]byte{"site.css": web.BaseCSS(), "site.js": js})
}

// assetURLs are the versioned URLs of the assets below root.
func assetURLsOf(set web.Assets, root string) assetURLs {
	return assetURLs{CSS: set.URL(root, "site.css"), JS: set.URL(root, "site.js")}
}
