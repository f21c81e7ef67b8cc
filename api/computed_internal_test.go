package api

import (
	"testing"

	"github.com/quiredocs/quire"
)

// FuzzComputeOpenAPIDocument: any specification text, any document asked
// of it, computes without panicking: a document whose every block is
// keyed, or an invalid-input error.
func FuzzComputeOpenAPIDocument(f *testing.F) {
	f.Add([]byte(`{"info":{"description":"*API*"},"tags":[{"name":"a","description":"A"}],"paths":{"/x":{"parameters":[],"get":{"tags":["a"]}}},"components":{"schemas":{"S":{}}}}`), "operations", "a", "get")
	f.Add([]byte(`{"paths":{"/x":{"get":{"tags":"a"}}},"definitions":{"D":{}}}`), "models", "", "")
	f.Add([]byte(`{"paths":[],"tags":{}}`), "operation", "/x", "get")
	f.Fuzz(func(t *testing.T, spec []byte, doc, page, method string) {
		out, err := computeOpenAPIDocument(spec, "s", doc, page, method, "seed")
		if err != nil {
			if quire.ErrorCode(err) != quire.CodeInvalid {
				t.Fatalf("error %v, want an invalid-input one", err)
			}
			return
		}
		for _, n := range out["nodes"].([]map[string]any) {
			if n["key"] == nil {
				t.Fatalf("block without a key: %v", n)
			}
		}
	})
}
