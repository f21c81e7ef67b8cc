package authoring_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire/authoring"
)

func TestCheckImport(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	tests := []struct {
		url, source *string
		want        string // "" when allowed
	}{
		{str("https://example.com/docs"), str("website"), ""},
		{nil, str("website"), "url: is required"},
		{str(""), str("website"), "url: is required"},
		{str("https://example.com/" + strings.Repeat("a", 2048)), str("website"), "url: must be at most 2048 characters"},
		{str("https://example.com/"), nil, "source: is required"},
		{str("https://example.com/"), str("github"), "source: must be website"},
	}
	for _, tt := range tests {
		got := ""
		if err := authoring.CheckImport(tt.url, tt.source); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckImport: %q, want %q", got, tt.want)
		}
	}
}
