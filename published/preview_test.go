package published

import "testing"

func TestCutPreview(t *testing.T) {
	tests := []struct {
		path   string
		want   Preview
		rest   string
		ok     bool
		prefix string
	}{
		{"~/changes/cr1/guide/install", Preview{ChangeRequest: "cr1"}, "guide/install", true, "~/changes/cr1/"},
		{"~/changes/cr1", Preview{ChangeRequest: "cr1"}, "", true, "~/changes/cr1/"},
		{"~/revisions/r9/a", Preview{Revision: "r9"}, "a", true, "~/revisions/r9/"},
		{"~/revisions/r9/", Preview{Revision: "r9"}, "", true, "~/revisions/r9/"},
		{"~/changes", Preview{}, "~/changes", false, ""},
		{"~/changes/", Preview{}, "~/changes/", false, ""},
		{"~/other/x/a", Preview{}, "~/other/x/a", false, ""},
		{"guide/~/changes/cr1", Preview{}, "guide/~/changes/cr1", false, ""},
		{"~changes/cr1", Preview{}, "~changes/cr1", false, ""},
		{"", Preview{}, "", false, ""},
	}
	for _, tt := range tests {
		p, rest, ok := CutPreview(tt.path)
		if p != tt.want || rest != tt.rest || ok != tt.ok {
			t.Errorf("CutPreview(%q) = %+v, %q, %v; want %+v, %q, %v", tt.path, p, rest, ok, tt.want, tt.rest, tt.ok)
		}
		if ok && p.Prefix() != tt.prefix {
			t.Errorf("CutPreview(%q).Prefix() = %q, want %q", tt.path, p.Prefix(), tt.prefix)
		}
	}
}
