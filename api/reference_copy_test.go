package api_test

import (
	"bytes"
	"flag"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiredocs/quire/internal/contract"
)

var updateReference = flag.Bool("update-reference", false, "rewrite "+servedReferencePath+" from the official document")

// servedReferencePath is the project's copy of the official OpenAPI
// document (0.202.0), cut to the operations Quire serves (those of its
// GET /v1/openapi.json): what answers beyond the contract's subset are
// held to. scripts/refresh-reference.sh rewrites it.
const servedReferencePath = "testdata/openapi-served.json"

// TestServedReferenceCopy holds the copy to a cut of the official document
// (../shared/reference) to the operations served today.
func TestServedReferenceCopy(t *testing.T) {
	subset := contract.Find(".")
	if subset == "" {
		t.Skip("the official document is not here")
	}
	full, err := os.ReadFile(filepath.Join(filepath.Dir(subset), "gitbook-openapi-0.202.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	var served struct {
		Paths map[string]map[string]any
	}
	e.call(t, "", "GET", "/v1/openapi.json", nil).want(t, http.StatusOK).Decode(t, &served)
	cut, err := contract.Cut(full, func(method, template string) bool {
		for path, item := range served.Paths {
			if _, ok := item[strings.ToLower(method)]; ok && sameTemplate(path, template) {
				return true
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if *updateReference {
		if err := os.WriteFile(servedReferencePath, cut, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copied, err := os.ReadFile(servedReferencePath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(copied, cut) {
		t.Errorf("%s is not the official document cut to the operations served: run scripts/refresh-reference.sh", servedReferencePath)
	}
}

// sameTemplate reports whether two path templates are the same but for
// the names of their parameters.
func sameTemplate(a, b string) bool {
	as, bs := strings.Split(a, "/"), strings.Split(b, "/")
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		if as[i] != bs[i] && !(strings.HasPrefix(as[i], "{") && strings.HasPrefix(bs[i], "{")) {
			return false
		}
	}
	return true
}
