package web

import "testing"

// TestFileType: only types a browser shows inert are served as they were
// stored; anything that could run or style a page of the origin (scripts,
// style sheets, HTML, unknown or malformed types) is an attachment of no type.
func TestFileType(t *testing.T) {
	for stored, want := range map[string][2]string{
		"image/png":                      {"image/png", "inline"},
		"text/plain":                     {"text/plain; charset=utf-8", "inline"},
		"image/svg+xml":                  {"image/svg+xml", "inline"},
		"text/javascript":                {"application/octet-stream", "attachment"},
		"application/javascript":         {"application/octet-stream", "attachment"},
		"text/javascript; charset=utf-8": {"application/octet-stream", "attachment"},
		"text/css":                       {"application/octet-stream", "attachment"},
		"text/html":                      {"application/octet-stream", "attachment"},
		"application/wasm":               {"application/octet-stream", "attachment"},
		"":                               {"application/octet-stream", "attachment"},
		"not a type":                     {"application/octet-stream", "attachment"},
	} {
		if ctype, disposition := FileType(stored); ctype != want[0] || disposition != want[1] {
			t.Errorf("FileType(%q) = %q, %q; want %q, %q", stored, ctype, disposition, want[0], want[1])
		}
	}
}
