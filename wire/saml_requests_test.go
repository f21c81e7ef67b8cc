package wire_test

import (
	"testing"

	"github.com/quiredocs/quire/wire"
)

func TestSAMLRequests(t *testing.T) {
	create := func() validator { return &wire.CreateOrganizationSAMLProvider{} }
	update := func() validator { return &wire.UpdateOrganizationSAMLProvider{} }
	runRequests(t, []requestCase{
		{"create label required", `{}`, create, "label: is required"},
		{"create label", `{"label":"Okta"}`, create, ""},
		{"update nothing", `{}`, update, ""},
		{"update role", `{"defaultRole":"x"}`, update, "defaultRole: must be one of admin, create, review, edit, comment, read or null"},
	})
}
