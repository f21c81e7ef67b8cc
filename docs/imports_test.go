package docs_test

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/quiredocs/quire/render"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

const module = "github.com/quiredocs/quire"

// TestArchitectureImports: the table of the architecture page names every
// package of the module, and each imports (outside its tests) only the
// packages of ours its row allows.
func TestArchitectureImports(t *testing.T) {
	page, err := os.ReadFile("architecture/packages.md")
	if err != nil {
		t.Fatal(err)
	}
	allowed := importRules(t, string(page))
	pkgs := modulePackages(t, "..")
	if len(pkgs) < 30 {
		t.Fatalf("found %d packages in the module", len(pkgs))
	}
	for name, imports := range pkgs {
		may, ok := allowed[name]
		if !ok {
			t.Errorf("package %s has no row in architecture/packages.md", name)
			continue
		}
		for _, imp := range imports {
			if may != nil && !slices.Contains(may, imp) {
				t.Errorf("package %s imports %s, which architecture/packages.md does not allow it", name, imp)
			}
		}
	}
	for name := range allowed {
		if _, ok := pkgs[name]; !ok {
			t.Errorf("architecture/packages.md names %s, which is no package of the module", name)
		}
	}
}

// importRules reads the page's table: package names (code spans of the
// first column) → the packages they may import (code spans of the second;
// nil for "any").
func importRules(t *testing.T, markdown string) map[string][]string {
	t.Helper()
	doc, src := render.Parse(markdown)
	codes := func(cell ast.Node) []string {
		var out []string
		for c := cell.FirstChild(); c != nil; c = c.NextSibling() {
			if _, ok := c.(*ast.CodeSpan); ok {
				out = append(out, render.InlineText(c, src))
			}
		}
		return out
	}
	rules := map[string][]string{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		row, ok := n.(*east.TableRow)
		if !entering || !ok || row.ChildCount() < 2 {
			return ast.WalkContinue, nil
		}
		names, may := codes(row.FirstChild()), codes(row.FirstChild().NextSibling())
		if strings.TrimSpace(render.InlineText(row.FirstChild().NextSibling(), src)) == "any" {
			may = nil
		} else if may == nil {
			may = []string{}
		}
		for _, name := range names {
			rules[name] = may
		}
		return ast.WalkContinue, nil
	})
	if len(rules) == 0 {
		t.Fatal("architecture/packages.md has no table of packages")
	}
	return rules
}

// modulePackages finds the module's packages under root and the packages of
// ours each imports outside its tests, named as the page names them (the
// root package "quire", others by their folder).
func modulePackages(t *testing.T, root string) map[string][]string {
	t.Helper()
	name := func(importPath string) string {
		if importPath == module {
			return "quire"
		}
		return strings.TrimPrefix(importPath, module+"/")
	}
	pkgs := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(p, 0)
		if err != nil {
			return nil // no Go package here (or tests only)
		}
		rel, _ := filepath.Rel(root, p)
		importPath := module
		if rel != "." {
			importPath += "/" + filepath.ToSlash(rel)
		}
		var ours []string
		for _, imp := range bp.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				ours = append(ours, name(imp))
			}
		}
		pkgs[name(importPath)] = ours
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}
