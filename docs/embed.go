// Package docs is Quire's manual, in GitBook's Git layout: .gitbook.yaml,
// SUMMARY.md, one page per topic in a folder per part, and the images in
// .gitbook/assets. quire demo imports it as a space and publishes it.
package docs

import (
	"embed"
	"io/fs"
)

// manual holds the manual's files; this package's Go files are not part of it.
//
//go:embed .gitbook.yaml SUMMARY.md README.md all:.gitbook getting-started writing publishing api running architecture
var manual embed.FS

// Files returns the manual's files by slash path, the folder an import reads.
func Files() (map[string][]byte, error) {
	files := map[string][]byte{}
	err := fs.WalkDir(manual, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := manual.ReadFile(p)
		files[p] = data
		return err
	})
	return files, err
}
