package jobs_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/jobs"
)

// Documents shared by the tests of this package.
const (
	petstore30 = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets/{petId}:
    get:
      operationId: getPet
      parameters:
        - name: petId
          in: path
          required: true
          schema: {type: string}
      responses:
        "200":
          description: A pet
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
components:
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: {type: string}
`
	petstore31JSON = `{"openapi":"3.1.0","info":{"title":"Petstore","version":"1"},
"paths":{"/pets":{"get":{"responses":{"200":{"description":"Pets"}}}}},
"webhooks":{"newPet":{"post":{"responses":{"200":{"description":"ok"}}}}}}`
	petstoreSwagger = `swagger: "2.0"
info: {title: Petstore, version: "1"}
host: api.example.com
basePath: /v1
paths:
  /pets:
    get:
      produces: [application/json]
      responses:
        "200":
          description: Pets
          schema:
            type: array
            items: {$ref: "#/definitions/Pet"}
definitions:
  Pet:
    type: object
    properties:
      id: {type: string}
`
	// invalidSpec is OpenAPI in form but breaks its rules: no info, and a
	// path parameter that is not required.
	invalidSpec = `openapi: 3.0.3
paths:
  /pets/{petId}:
    get:
      parameters:
        - {name: petId, in: path, schema: {type: string}}
      responses:
        "200": {description: A pet}
`
)

func TestParseSpec(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, doc  string
		wantFormat string              // on success
		wantCode   quire.SpecErrorCode // on failure
		wantIn     string              // in the first message
	}{
		{name: "OpenAPI 3.0 YAML", doc: petstore30, wantFormat: "3.0.3"},
		{name: "OpenAPI 3.1 JSON with webhooks", doc: petstore31JSON, wantFormat: "3.1.0"},
		{name: "Swagger 2.0", doc: petstoreSwagger, wantFormat: "2.0"},
		{name: "invalid OpenAPI", doc: invalidSpec, wantCode: quire.SpecParseError, wantIn: "info"},
		{name: "broken reference", doc: strings.Replace(petstore30, "schemas/Pet", "schemas/Cat", 1), wantCode: quire.SpecParseError, wantIn: "Cat"},
		{name: "external reference not fetched", doc: strings.Replace(petstore30, "#/components/schemas/Pet", "http://127.0.0.1:1/pet.yaml", 1),
			wantCode: quire.SpecParseError, wantIn: "external"},
		{name: "not YAML", doc: "openapi: [3.0.3\n", wantCode: quire.SpecParseError, wantIn: "not a JSON or YAML object"},
		{name: "a list", doc: "- 1\n- 2\n", wantCode: quire.SpecParseError, wantIn: "not a JSON or YAML object"},
		{name: "another document", doc: `{"name": "a package.json"}`, wantCode: quire.SpecParseError, wantIn: `no "openapi" or "swagger" field`},
		{name: "OpenAPI 2", doc: "openapi: 2.0.0\ninfo: {title: x, version: '1'}\npaths: {}\n", wantCode: quire.SpecParseError, wantIn: "not supported"},
		{name: "Swagger 1.2", doc: "swagger: '1.2'\n", wantCode: quire.SpecParseError, wantIn: "not supported"},
		{name: "empty", doc: " \n", wantCode: quire.SpecParseError, wantIn: "empty"},
		{name: "binary", doc: "openapi: 3.0.3\x00\xff", wantCode: quire.SpecParseError, wantIn: "UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := jobs.ParseSpec(t.Context(), []byte(tc.doc))
			if res.ErrorCode != tc.wantCode {
				t.Fatalf("ParseSpec: code %q (errors %q), want %q", res.ErrorCode, res.Errors, tc.wantCode)
			}
			if tc.wantCode == "" {
				if res.Format != tc.wantFormat || res.Document != tc.doc {
					t.Errorf("ParseSpec: format %q, document kept %v; want %q and the document as given", res.Format, res.Document == tc.doc, tc.wantFormat)
				}
				return
			}
			if len(res.Errors) == 0 || res.ErrorCount < len(res.Errors) || !strings.Contains(res.Errors[0], tc.wantIn) {
				t.Errorf("ParseSpec: errors %q (count %d), want the first to mention %q", res.Errors, res.ErrorCount, tc.wantIn)
			}
		})
	}
}

// FuzzParseSpec: whatever the document, ParseSpec neither panics nor
// hangs, and answers a version or a PARSE_ERROR with a message.
func FuzzParseSpec(f *testing.F) {
	for _, doc := range []string{petstore30, petstore31JSON, petstoreSwagger, invalidSpec, "", "openapi: 3.0.0", "swagger: '2.0'", "a: &a [*a, *a]"} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		res := jobs.ParseSpec(t.Context(), doc)
		switch res.ErrorCode {
		case "":
			if res.Format == "" || res.Document != string(doc) {
				t.Fatalf("ParseSpec(%q): success without format %q or document", doc, res.Format)
			}
			// YAML is also kept as JSON; JSON needs no copy.
			if isJSON := json.Valid(doc); isJSON != (res.JSON == "") || (!isJSON && !json.Valid([]byte(res.JSON))) {
				t.Fatalf("ParseSpec(%q): JSON form %q", doc, res.JSON)
			}
		case quire.SpecParseError:
			if len(res.Errors) == 0 {
				t.Fatalf("ParseSpec(%q): PARSE_ERROR without a message", doc)
			}
		default:
			t.Fatalf("ParseSpec(%q): code %q, want success or PARSE_ERROR", doc, res.ErrorCode)
		}
	})
}
