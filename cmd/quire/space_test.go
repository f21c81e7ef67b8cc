package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/quiredocs/quire/store"
)

// readTree reads every file under dir, by slash path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSpaceExportImport imports a folder with the CLI, exports it, imports
// the export into another space and exports that: the folders match.
func TestSpaceExportImport(t *testing.T) {
	s := newTestStore(t)
	out, _, err := runCLI(t, s.args("admin", "init", "--org", "Docs", "--email", "ada@example.com", "--name", "Ada")...)
	if err != nil {
		t.Fatal(err)
	}
	var ini struct{ Organization struct{ ID string } }
	if err := json.Unmarshal([]byte(out), &ini); err != nil {
		t.Fatal(err)
	}
	db := s.open(t)
	var spaces []string
	for range 2 {
		sp, err := db.CreateSpace(t.Context(), ini.Organization.ID, store.NewSpace{Title: "Handbook"})
		if err != nil {
			t.Fatal(err)
		}
		spaces = append(spaces, sp.ID)
	}
	db.Close()

	src := t.TempDir()
	writeTree(t, src, map[string]string{
		"SUMMARY.md":            "# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n",
		"README.md":             "# Home\n\nSee [install](guide/install.md#steps).\n",
		"guide/README.md":       "# Guide\n\n![](../.gitbook/assets/a.txt)\n",
		"guide/install.md":      "---\nhidden: true\n---\n\n# Install\n\n## Steps\n",
		".gitbook/assets/a.txt": "asset\n",
		".git/HEAD":             "ref: refs/heads/main\n",
	})
	if _, stderr, err := runCLI(t, s.args("space", "import", spaces[0], src, "--email", "ada@example.com")...); err != nil {
		t.Fatalf("import: %v %s", err, stderr)
	}
	first := filepath.Join(t.TempDir(), "first")
	if _, stderr, err := runCLI(t, s.args("space", "export", spaces[0], first)...); err != nil {
		t.Fatalf("export: %v %s", err, stderr)
	}
	if _, _, err := runCLI(t, s.args("space", "import", spaces[1], first, "--email", "ada@example.com")...); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(t.TempDir(), "second")
	if _, _, err := runCLI(t, s.args("space", "export", spaces[1], second)...); err != nil {
		t.Fatal(err)
	}
	a, b := readTree(t, first), readTree(t, second)
	if diff := cmp.Diff(a, b); diff != "" {
		t.Fatalf("exports differ:\n%s", diff)
	}
	if a["guide/install.md"] != "---\nhidden: true\n---\n\n# Install\n\n## Steps\n" || a[".gitbook/assets/a.txt"] != "asset\n" ||
		a["README.md"] != "# Home\n\nSee [install](guide/install.md#steps).\n" {
		t.Errorf("export %v", a)
	}
	// An export does not write into a folder with files in it.
	if _, _, err := runCLI(t, s.args("space", "export", spaces[1], second)...); err == nil {
		t.Error("export into a folder with files: no error")
	}
	// A folder whose page is not valid changes nothing.
	bad := t.TempDir()
	writeTree(t, bad, map[string]string{"README.md": "---\nhidden: maybe\n---\n# X\n"})
	if _, _, err := runCLI(t, s.args("space", "import", spaces[1], bad, "--email", "ada@example.com")...); err == nil {
		t.Error("import of a bad front matter: no error")
	}
	if _, _, err := runCLI(t, s.args("space", "import", spaces[1])...); !errors.Is(err, errUsage) {
		t.Errorf("import without DIR: %v", err)
	}
}
