package ask

import (
	"strings"
	"testing"
)

func TestCheckQuestion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		q, want string // want: "" when allowed
	}{
		{"How do I install it?", ""},
		{strings.Repeat("é", MaxQuestion), ""},
		{"", "query: is required"},
		{strings.Repeat("é", MaxQuestion+1), "query: must be at most 1000 characters"},
	}
	for _, tt := range tests {
		got := ""
		if err := CheckQuestion("query", tt.q); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("CheckQuestion(%.20q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
