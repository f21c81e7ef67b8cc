package insights

import (
	"strings"
	"testing"
)

func TestSearchText(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Install", "install"},
		{"  How   to\tINSTALL \n", "how to install"},
		{"", ""},
		{strings.Repeat("é", 200), strings.Repeat("é", 128)},
		{strings.Repeat("a ", 100), strings.Repeat("a ", 64)}, // cut after the spaces are made one
	}
	for _, tt := range tests {
		if got := SearchText(tt.in); got != tt.want {
			t.Errorf("SearchText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
