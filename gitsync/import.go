package gitsync

import (
	"bytes"
	"github.com/quiredocs/quire/render"
	"image"
	_ "image/gif" // image dimensions of imported files
	_ "image/jpeg"
	_ "image/png"
	"mime"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/store"
	"gopkg.in/yaml.v3"
)

// Imported is a tree read from a folder, with the bytes of its files.
// Pages kept unchanged from the base keep their times; the others have
// none (0) until Stamp dates them.
type Imported struct {
	Tree  *content.Tree
	Blobs [][]byte // bytes of the tree's files, to Put in the blob store before committing
	// Redirects are .gitbook.yaml's redirects: former path → id of the
	// page whose file it names (see redirects.go); nil when the folder has
	// no .gitbook.yaml, so that an import of loose files keeps the space's.
	Redirects map[string]string
}

// Stamp dates the pages the import made or changed (those without times)
// at now, Unix microseconds: the time of the revision that commits them.
func (im *Imported) Stamp(now int64) {
	for _, p := range im.Tree.Pages {
		if p.CreatedAt == 0 {
			p.CreatedAt = now
		}
		if p.UpdatedAt == 0 {
			p.UpdatedAt = now
		}
	}
}

// config is what .gitbook.yaml says.
type config struct {
	Root      string `yaml:"root"`
	Structure struct {
		Readme  string `yaml:"readme"`
		Summary string `yaml:"summary"`
	} `yaml:"structure"`
	Redirects map[string]string `yaml:"redirects"`
}

// Import reads a folder of that layout (slash paths relative to the folder; .gitbook.yaml's
// root and structure honoured) into a new tree. Pages and files at the same Git path as in base
// (nil for none) keep base's ids, so a three-way merge by page id sees edits, not deletions and
// insertions.
func Import(base *content.Tree, files map[string][]byte) (*Imported, error) {
	for p := range files {
		if err := CheckPath(p); err != nil {
			return nil, err
		}
	}
	cfg, err := readConfig(files[ConfigFile])
	if err != nil {
		return nil, err
	}
	// The folder below the root, paths relative to it.
	sub := make(map[string][]byte, len(files))
	for p, data := range files {
		if cfg.Root == "" {
			sub[p] = data
		} else if rest, ok := strings.CutPrefix(p, cfg.Root+"/"); ok {
			sub[rest] = data
		}
	}
	im := &importer{sub: sub, readme: cfg.Structure.Readme, summary: cfg.Structure.Summary,
		t:      &content.Tree{Pages: map[string]*content.Page{}, Files: map[string]*content.File{}},
		byPath: map[string]string{}, pathOf: map[string]string{}, fileByPath: map[string]string{}, used: map[string]bool{}}
	im.baseIDs(base)
	var entries []*summaryEntry
	if toc, ok := sub[im.summary]; ok {
		entries = readSummary(toc, path.Dir(im.summary))
	} else {
		entries = im.walkDir("")
	}
	if im.t.Root, err = im.build(entries, true); err != nil {
		return nil, err
	}
	// Every file of the assets folder is a file of the space; other files
	// are when a page links to them (rewriting links adds them).
	for p := range sub {
		if strings.HasPrefix(p, AssetsDir+"/") {
			im.file(p)
		}
	}
	for id, p := range im.pathOf {
		pg := im.t.Pages[id]
		pg.Markdown = im.links(p, pg.Markdown)
		im.keepTimes(pg)
	}
	out := &Imported{Tree: im.t}
	if _, ok := files[ConfigFile]; ok {
		if out.Redirects, err = resolveRedirects(cfg.Redirects, im.byPath); err != nil {
			return nil, err
		}
	}
	paths := make([]string, 0, len(im.fileByPath))
	for p := range im.fileByPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	seen := map[string]bool{}
	for _, p := range paths {
		if f := im.t.Files[im.fileByPath[p]]; !seen[f.Blob] {
			seen[f.Blob] = true
			out.Blobs = append(out.Blobs, sub[p])
		}
	}
	if err := im.t.Validate(); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "the folder does not make a valid tree: %s", err)
	}
	return out, nil
}

// CheckPath refuses a path that could name a file outside the folder:
// absolute, with "..", "." or empty segments, backslashes or NUL.
func CheckPath(p string) error {
	switch {
	case p == "" || !utf8.ValidString(p):
		return quire.Errorf(quire.CodeInvalid, "path %q: must be a non-empty UTF-8 path", p)
	case strings.HasPrefix(p, "/") || (len(p) > 1 && p[1] == ':'):
		return quire.Errorf(quire.CodeInvalid, "path %q: must be relative to the folder", p)
	case strings.ContainsAny(p, "\\\x00"):
		return quire.Errorf(quire.CodeInvalid, "path %q: must not contain backslashes or NUL", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." || seg == "." || seg == "" {
			return quire.Errorf(quire.CodeInvalid, "path %q: must not contain \"..\", \".\" or empty segments", p)
		}
	}
	return nil
}

// readConfig reads .gitbook.yaml; nil data gives the defaults.
func readConfig(data []byte) (*config, error) {
	var c config
	if data != nil {
		if err := yaml.Unmarshal(data, &c); err != nil {
			return nil, quire.Errorf(quire.CodeInvalid, "%s: %s", ConfigFile, err)
		}
	}
	root := strings.Trim(path.Clean("/"+strings.TrimSpace(c.Root)), "/")
	if strings.Contains(c.Root, "..") {
		return nil, quire.Errorf(quire.CodeInvalid, "%s: root: must be a folder inside the repository", ConfigFile)
	}
	c.Root = root
	for _, f := range []*string{&c.Structure.Readme, &c.Structure.Summary} {
		def := DefaultReadme
		if f == &c.Structure.Summary {
			def = DefaultTOC
		}
		v := strings.TrimPrefix(strings.TrimSpace(*f), "./")
		if v == "" {
			v = def
		}
		if CheckPath(v) != nil {
			return nil, quire.Errorf(quire.CodeInvalid, "%s: structure: %q must be a file inside the root", ConfigFile, v)
		}
		*f = v
	}
	return &c, nil
}

// entityID is the reference's pattern of ids.
var entityID = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// importer builds the tree of one import.
type importer struct {
	sub             map[string][]byte // the folder below its root
	readme, summary string
	t               *content.Tree
	byPath          map[string]string // page file → page id
	pathOf          map[string]string // page id → its file
	fileByPath      map[string]string // file path → file id
	used            map[string]bool   // ids given

	basePages, baseFiles map[string]string // base's ids by path
	base                 *content.Tree
}

// baseIDs indexes base's pages and files by path.
func (im *importer) baseIDs(base *content.Tree) {
	im.basePages, im.baseFiles, im.base = map[string]string{}, map[string]string{}, base
	if base == nil {
		return
	}
	for id, p := range content.GitPaths(base) {
		im.basePages[p] = id
	}
	for id, p := range assetPaths(base) {
		im.baseFiles[p] = id
	}
}

// id is base's id for what sits at key in it, when not taken, else a new one.
func (im *importer) id(from map[string]string, key string) string {
	if id, ok := from[key]; ok && !im.used[id] {
		im.used[id] = true
		return id
	}
	id := store.NewID()
	im.used[id] = true
	return id
}

// build makes the pages of entries and returns their ids in order. An
// entry naming no page file of the folder, or one already placed, is left
// out and its children take its place.
func (im *importer) build(entries []*summaryEntry, top bool) ([]string, error) {
	var ids []string
	for _, e := range entries {
		kids, err := im.build(e.children, false)
		if err != nil {
			return nil, err
		}
		if e.group {
			ids = append(ids, im.group(e, kids, top))
			continue
		}
		if e.path == "" || !strings.EqualFold(path.Ext(e.path), ".md") || im.byPath[e.path] != "" || e.path == im.summary {
			ids = append(ids, kids...)
			continue
		}
		id, err := im.page(e, kids)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// page makes the page of entry e, whose file may be missing (an empty
// page then).
func (im *importer) page(e *summaryEntry, kids []string) (string, error) {
	data := im.sub[e.path]
	if len(data) > edit.MaxMarkdownSize+64<<10 {
		return "", quire.Errorf(quire.CodeTooLarge, "%s: a page is at most %d bytes of markdown", e.path, edit.MaxMarkdownSize)
	}
	r, err := readPage(e.path, data)
	if err != nil {
		return "", err
	}
	if len(r.body) > edit.MaxMarkdownSize {
		return "", quire.Errorf(quire.CodeTooLarge, "%s: a page is at most %d bytes of markdown", e.path, edit.MaxMarkdownSize)
	}
	title := e.title
	if title == "" {
		title = r.meta.Title
	}
	if title == "" && data == nil {
		title = strings.TrimSuffix(path.Base(e.path), path.Ext(e.path))
	}
	if utf8.RuneCountInString(title) > edit.MaxTitle {
		return "", quire.Errorf(quire.CodeInvalid, "%s: the title is longer than %d characters", e.path, edit.MaxTitle)
	}
	slug := slugFromPath(e.path, im.readme, title)
	if r.slug != nil {
		slug = *r.slug
	}
	id := im.id(im.basePages, e.path)
	if r.slug != nil && strings.Trim(*r.slug, ".") == "" {
		// A page whose slug makes no path segment ("", "..") is written
		// under its id (content.GitPaths): it keeps that id, so the folder
		// reads back as written.
		stem := strings.TrimSuffix(path.Base(e.path), path.Ext(e.path))
		switch {
		case path.Base(e.path) == DefaultReadme && path.Dir(e.path) != ".":
			stem = path.Base(path.Dir(e.path))
		case path.Base(e.path) == DefaultReadme: // the first page: its children's folder
			stem = path.Base(im.firstDir(kids))
		}
		if _, inBase := im.basePages[e.path]; !inBase && entityID.MatchString(stem) && !im.used[stem] {
			delete(im.used, id)
			id = stem
			im.used[id] = true
		}
	}
	p := &content.Page{ID: id, Kind: content.KindDocument, Title: title, Slug: slug, Description: r.meta.Description,
		Emoji: r.meta.Emoji, Icon: r.meta.Icon, Condition: r.condition, Markdown: r.body, Children: kids}
	for _, f := range []struct {
		dst *bool
		v   *bool
	}{{&p.Hidden, r.meta.Hidden}, {&p.NoIndex, r.meta.NoIndex}, {&p.NoRobotsIndex, r.meta.NoRobotsIndex}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	im.t.Pages[id] = p
	im.byPath[e.path], im.pathOf[id] = id, e.path
	return id, nil
}

// group makes the group of entry e. It keeps the id of the base's group
// its pages were in, or at the top level of the base's group with its slug.
func (im *importer) group(e *summaryEntry, kids []string, top bool) string {
	slug := quire.PageSlug(e.title)
	if e.slug != nil {
		slug = *e.slug
	}
	id := ""
	if im.base != nil {
		for _, k := range kids {
			if pid, ok := im.base.Parent(k); ok && pid != "" && !im.used[pid] && im.base.Pages[pid].Kind == content.KindGroup {
				id = pid
				break
			}
		}
		for _, rid := range im.base.Root {
			if g := im.base.Pages[rid]; id == "" && top && g != nil && g.Kind == content.KindGroup && g.Slug == slug && !im.used[rid] {
				id = rid
			}
		}
	}
	if id == "" && strings.Trim(slug, ".") == "" && len(kids) > 0 {
		// Its folder is named by its id (content.GitPaths): keep it.
		if stem := path.Base(im.firstDir(kids)); entityID.MatchString(stem) && !im.used[stem] {
			id = stem
		}
	}
	if id == "" {
		id = store.NewID()
	}
	im.used[id] = true
	im.t.Pages[id] = &content.Page{ID: id, Kind: content.KindGroup, Title: e.title, Slug: slug, Children: kids}
	return id
}

// parentDir is the folder the page id sits in: a leaf's file's folder,
// the folder above a README's, the folder above a group's; "." when it
// has none (a group of no pages).
func (im *importer) parentDir(id string) string {
	p := im.t.Pages[id]
	switch {
	case p.Kind == content.KindGroup:
		if d := im.firstDir(p.Children); d != "." {
			return path.Dir(d)
		}
		return "."
	case path.Base(im.pathOf[id]) == DefaultReadme:
		return path.Dir(path.Dir(im.pathOf[id]))
	}
	return path.Dir(im.pathOf[id])
}

// firstDir is the folder the first of ids that has one sits in; "." when
// none has.
func (im *importer) firstDir(ids []string) string {
	for _, id := range ids {
		if d := im.parentDir(id); d != "." {
			return d
		}
	}
	return "."
}

// file makes the file at path p (once) and returns its id.
func (im *importer) file(p string) string {
	if id, ok := im.fileByPath[p]; ok {
		return id
	}
	data := im.sub[p]
	id := im.id(im.baseFiles, p)
	f := &content.File{ID: id, Name: path.Base(p), Size: int64(len(data)), Blob: blob.Key(data)}
	f.ContentType = mime.TypeByExtension(path.Ext(p))
	if mt, _, err := mime.ParseMediaType(f.ContentType); err == nil {
		f.ContentType = mt
	} else {
		f.ContentType, _, _ = mime.ParseMediaType(http.DetectContentType(data))
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(data)); err == nil {
		f.Width, f.Height = cfg.Width, cfg.Height
	}
	im.t.Files[id] = f
	im.fileByPath[p] = id
	return id
}

// links translates the destinations of the body of the page at path p:
// relative ".md" paths become /pages/<id>, paths to files of the folder
// /files/<id>.
func (im *importer) links(p, body string) string {
	dir := path.Dir(p)
	return render.RewriteTargets(body, func(target string) (string, bool) {
		t := strings.TrimSpace(target)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") || strings.Contains(t, ":") && render.HasScheme(t) {
			return "", false
		}
		raw, rest := splitTarget(t)
		u, err := unescapePath(raw)
		if err != nil {
			u = raw
		}
		full, ok := joinPath(dir, u)
		if !ok {
			return "", false
		}
		if strings.HasSuffix(u, "/") {
			full += "/" + DefaultReadme
		}
		if id, ok := im.byPath[full]; ok {
			return "/pages/" + id + rest, true
		}
		if data, ok := im.sub[full]; ok && data != nil && !strings.EqualFold(path.Ext(full), ".md") && full != ConfigFile {
			return "/files/" + im.file(full) + rest, true
		}
		return "", false
	})
}

// keepTimes gives a page kept from the base its creation time, and its
// edit time when nothing of it changed; other times are left 0 for the
// committer to stamp.
func (im *importer) keepTimes(p *content.Page) {
	if im.base == nil {
		return
	}
	old := im.base.Pages[p.ID]
	if old == nil {
		return
	}
	p.CreatedAt = old.CreatedAt
	if samePage(*old, *p) {
		p.UpdatedAt = old.UpdatedAt
	}
}

func samePage(a, b content.Page) bool {
	return a.Title == b.Title && a.Slug == b.Slug && a.Emoji == b.Emoji && a.Icon == b.Icon && a.Description == b.Description &&
		a.Condition == b.Condition && a.Hidden == b.Hidden && a.NoIndex == b.NoIndex && a.NoRobotsIndex == b.NoRobotsIndex &&
		a.Kind == b.Kind && a.Markdown == b.Markdown
}

// walkDir makes the table of contents of a folder without SUMMARY.md, as
// GitBook does: in each folder its README.md (at the root, the readme) and
// then its other pages and folders by name; a folder with a README.md is
// a page holding what the folder holds, one without lends its pages to its
// parent. Folders starting with "." are not read.
func (im *importer) walkDir(dir string) []*summaryEntry {
	pages := map[string]bool{}
	subdirs := map[string]bool{}
	for p := range im.sub {
		rest := p
		if dir != "" {
			var ok bool
			if rest, ok = strings.CutPrefix(p, dir+"/"); !ok {
				continue
			}
		}
		if name, _, nested := strings.Cut(rest, "/"); nested {
			if !strings.HasPrefix(name, ".") {
				subdirs[name] = true
			}
		} else if strings.EqualFold(path.Ext(rest), ".md") && !strings.HasPrefix(rest, ".") {
			pages[rest] = true
		}
	}
	join := func(name string) string {
		if dir == "" {
			return name
		}
		return dir + "/" + name
	}
	var out []*summaryEntry
	readme := DefaultReadme
	if dir == "" {
		readme = im.readme
	}
	if dir == "" && im.sub[readme] != nil {
		out = append(out, &summaryEntry{path: readme})
	}
	names := make([]string, 0, len(pages)+len(subdirs))
	for n := range pages {
		if join(n) != readme && join(n) != im.summary && !(dir != "" && n == DefaultReadme) {
			names = append(names, n)
		}
	}
	for n := range subdirs {
		names = append(names, n+"/")
	}
	sort.Strings(names)
	for _, n := range names {
		if d, isDir := strings.CutSuffix(n, "/"); isDir {
			kids := im.walkDir(join(d))
			if r := join(d) + "/" + DefaultReadme; im.sub[r] != nil && r != im.summary {
				out = append(out, &summaryEntry{path: r, children: kids})
			} else {
				out = append(out, kids...)
			}
			continue
		}
		out = append(out, &summaryEntry{path: join(n)})
	}
	return out
}
