package gitsync

import (
	"context"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
)

// Export writes revision tree t in the Git Sync folder layout: it calls put once per file, in
// byte order of path, with the file's bytes (page files, SUMMARY.md, .gitbook.yaml,
// .gitbook/assets/…). File bytes are read from blobs. redirects (former path → page id, the
// space's; nil for none) go to .gitbook.yaml, each to its page's file.
func Export(ctx context.Context, t *content.Tree, redirects map[string]string, blobs blob.Store, put func(path string, data []byte) error) error {
	paths := content.GitPaths(t)
	assets := assetPaths(t)
	names := make(map[string]string, len(t.Files))
	for id, f := range t.Files {
		names[id] = f.Name
	}
	r := &render.Resolver{Tree: t, Paths: paths, Files: names}

	// What to write, by path: pages and the table of contents are made
	// when their turn comes, file bytes read then, so that at most one
	// file's bytes are held at a time.
	gen := make(map[string]func() ([]byte, error), len(paths)+len(assets)+2)
	taken := make(map[string]bool, len(paths))
	for id, p := range paths {
		id, p := id, p
		taken[strings.ToLower(p)] = true
		gen[p] = func() ([]byte, error) { return exportPage(t, r, id, p, paths, assets), nil }
	}
	summary := DefaultTOC
	if taken[strings.ToLower(summary)] { // a top-level page with the slug "summary"
		summary = ".gitbook/" + DefaultTOC
	}
	gen[summary] = func() ([]byte, error) { return writeSummary(t, paths, path.Dir(summary)), nil }
	gen[ConfigFile] = func() ([]byte, error) { return configFile(summary, writeRedirects(redirects, paths)), nil }
	for id, p := range assets {
		f := t.Files[id]
		gen[p] = func() ([]byte, error) { return readBlob(ctx, blobs, f) }
	}

	order := make([]string, 0, len(gen))
	for p := range gen {
		order = append(order, p)
	}
	sort.Strings(order)
	for _, p := range order {
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := gen[p]()
		if err != nil {
			return err
		}
		if err := put(p, data); err != nil {
			return err
		}
	}
	return nil
}

// exportPage writes page id, at path p, as its file.
func exportPage(t *content.Tree, r *render.Resolver, id, p string, paths, assets map[string]string) []byte {
	pg := t.Pages[id]
	dir := path.Dir(p)
	body := hintsToGitBook(pg.Markdown)
	body = render.RewriteTargets(body, func(target string) (string, bool) {
		if strings.HasPrefix(target, "#") {
			return "", false
		}
		res := r.Resolve(id, target)
		if res.Status != render.StatusOK {
			return "", false
		}
		_, rest := splitTarget(target)
		switch res.Kind {
		case render.KindPage:
			if to, ok := paths[res.PageID]; ok {
				return escapePath(relPath(dir, to)) + rest, true
			}
		case render.KindFile:
			if to, ok := assets[res.FileID]; ok {
				return escapePath(relPath(dir, to)) + rest, true
			}
		}
		return "", false
	})
	return pageFile(pg, slugFromPath(p, DefaultReadme, pg.Title), body)
}

// configFile is the .gitbook.yaml Export writes.
func configFile(summary, redirects string) []byte {
	return []byte("root: ./\n\nstructure:\n  readme: " + DefaultReadme + "\n  summary: " + summary + "\n" + redirects)
}

// readBlob reads the bytes of file f.
func readBlob(ctx context.Context, blobs blob.Store, f *content.File) ([]byte, error) {
	if blobs == nil {
		return nil, fmt.Errorf("gitsync: no blob store for file %s", f.ID)
	}
	rc, err := blobs.Open(ctx, f.Blob)
	if err != nil {
		return nil, fmt.Errorf("gitsync: file %s (%s): %w", f.ID, f.Name, err)
	}
	defer rc.Close()
	return io.ReadAll(rc)
}
