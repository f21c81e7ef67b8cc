package wire_test

import (
	"testing"

	"github.com/quiredocs/quire/wire"
)

func TestResolvePublishedContentByURL(t *testing.T) {
	resolve := func() validator { return &wire.ResolvePublishedContentByURL{} }
	runRequests(t, []requestCase{
		{"url required", `{}`, resolve, "url: required"},
		{"url null", `{"url":null}`, resolve, "url: required"},
		{"url with visitor", `{"url":"https://docs.example.com/a","visitor":{"unsignedClaims":{"plan":"pro"}}}`, resolve, ""},
	})
}
