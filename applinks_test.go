package quire_test

import (
	"testing"

	"github.com/quiredocs/quire"
)

func TestAppLinks(t *testing.T) {
	const base = "https://q.example"
	for _, tt := range []struct{ got, want string }{
		{quire.AppOrgURL(base, "o1"), base + "/o/o1"},
		{quire.AppCollectionURL(base, "c1"), base + "/c/c1"},
		{quire.AppSpaceURL(base, "s1"), base + "/s/s1"},
		{quire.AppPageURL(base, "s1", "a/b", ""), base + "/s/s1/a/b"},
		{quire.AppPageURL("", "s1", "a", "h"), "/s/s1/a#h"},
		{quire.AppChangeRequestURL(base, "s1", "cr1"), base + "/s/s1/changes/cr1"},
		{quire.AppRevisionURL(base, "s1", "r1"), base + "/s/s1/revisions/r1"},
		{quire.AppCommentURL(base, "s1", "k1"), base + "/s/s1/comments/k1"},
		{quire.AppSiteURL(base, "o1", "x"), base + "/o/o1/sites/x"},
		{quire.AppOpenAPIURL(base, "o1", "pets"), base + "/o/o1/openapi/pets"},
		{quire.AppInstallationURL(base, "o1", "slack"), base + "/o/o1/integrations/slack"},
		{quire.AppIntegrationURL(base, "slack"), base + "/integrations/slack"},
		{quire.AppPath(quire.AppSpacePath), "/s/{spaceId}"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
