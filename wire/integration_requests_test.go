package wire_test

import (
	"testing"

	"github.com/quiredocs/quire/wire"
)

func TestIntegrationRequests(t *testing.T) {
	update := func() validator { return &wire.UpdateIntegrationInstallation{} }
	space := func() validator { return &wire.InstallIntegrationOnContent{Field: "space"} }
	site := func() validator { return &wire.InstallIntegrationOnContent{Field: "siteId"} }
	runRequests(t, []requestCase{
		{"install organization required", `{}`, func() validator { return &wire.OrganizationTarget{} }, "organization: required"},
		{"install organization empty", `{"organization":""}`, func() validator { return &wire.OrganizationTarget{} }, "organization: must be 1 to 100 characters"},
		{"update selection", `{"space_selection":"some"}`, update, "space_selection: must be one of all, selected"},
		{"update nothing", `{}`, update, ""},
		{"space required", `{}`, space, "space: required"},
		{"space only", `{"space":"s","siteId":"x"}`, space, "space: the only field"},
		{"site only", `{"space":"s","siteId":"x"}`, site, "siteId: the only field"},
		{"site given", `{"siteId":"x"}`, site, ""},
		{"content nothing", `{}`, func() validator { return &wire.UpdateIntegrationSpaceInstallation{} }, ""},
	})
}
