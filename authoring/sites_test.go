package authoring_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

func TestPublishedSpace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ title, want string }{
		{"Guides", "Guides"},
		{strings.Repeat("é", 60), strings.Repeat("é", 50)},
		{"", ""},
	} {
		got := authoring.PublishedSpace(tc.title)
		if got.Title != tc.want || got.EditMode != quire.EditLive {
			t.Errorf("PublishedSpace(%q) = %+v, want titled %q, edited live", tc.title, got, tc.want)
		}
	}
}
