package contract

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCut keeps the operations chosen, the components they refer to
// (through other components too, cycles included) and nothing else.
func TestCut(t *testing.T) {
	full := []byte(`{"openapi":"3.0.3","info":{"title":"x","version":"1"},
	"paths":{
	 "/a/{id}":{"parameters":[{"$ref":"#/components/parameters/id"}],
	   "get":{"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}},
	   "delete":{"responses":{"204":{"description":"gone"}}}},
	 "/b":{"get":{"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/B"}}}}}}}},
	"components":{
	 "parameters":{"id":{"name":"id","in":"path","required":true,"schema":{"type":"string"}}},
	 "schemas":{"A":{"type":"object","properties":{"next":{"$ref":"#/components/schemas/Node"},"n":{"type":"integer","maximum":10000000}}},
	  "Node":{"type":"object","properties":{"next":{"$ref":"#/components/schemas/Node"}}},
	  "B":{"type":"string"}},
	 "securitySchemes":{"user":{"type":"http","scheme":"bearer"}}}}`)
	got, err := Cut(full, func(method, template string) bool { return method == "GET" && template == "/a/{id}" })
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{}
	json.Unmarshal([]byte(`{"openapi":"3.0.3","info":{"title":"x","version":"1"},
	"paths":{"/a/{id}":{"parameters":[{"$ref":"#/components/parameters/id"}],
	   "get":{"responses":{"200":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/A"}}}}}}}},
	"components":{
	 "parameters":{"id":{"name":"id","in":"path","required":true,"schema":{"type":"string"}}},
	 "schemas":{"A":{"type":"object","properties":{"next":{"$ref":"#/components/schemas/Node"},"n":{"type":"integer","maximum":10000000}}},
	  "Node":{"type":"object","properties":{"next":{"$ref":"#/components/schemas/Node"}}}},
	 "securitySchemes":{"user":{"type":"http","scheme":"bearer"}}}}`), &want)
	if diff := cmp.Diff(want, doc); diff != "" {
		t.Errorf("cut (-want +got):\n%s", diff)
	}
	if _, err := Cut([]byte(`{"paths":{"/x":{"get":{"$ref":"#/components/schemas/Gone"}}}}`), func(string, string) bool { return true }); err == nil {
		t.Error("a reference to no component was cut without an error")
	}
}
