package authoring_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

func TestCheckAdaptiveSchema(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, raw string
		want      string // the schema kept, or the error's start
	}{
		{"compacted", `{ "type": "object", "properties": {"beta": {"type": "boolean", "description": "In the beta"}}, "additionalProperties": false }`,
			`{"type":"object","properties":{"beta":{"type":"boolean","description":"In the beta"}},"additionalProperties":false}`},
		{"malformed", `{"type":`, "jsonSchema: malformed JSON"},
		{"not an object", `[1]`, "jsonSchema: must be an object"},
		{"not draft-07", `{"type": 3}`, "jsonSchema: not a valid JSON Schema draft-07: "},
		{"an attribute without description", `{"type":"object","properties":{"beta":{"type":"boolean"}},"additionalProperties":false}`,
			"jsonSchema: must describe visitor attributes as the contract says"},
		{"other attributes allowed", `{"type":"object","properties":{},"additionalProperties":true}`,
			"jsonSchema: must describe visitor attributes as the contract says"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := authoring.CheckAdaptiveSchema([]byte(tc.raw))
			if err != nil {
				if quire.ErrorCode(err) != quire.CodeInvalid || !strings.HasPrefix(err.Error(), tc.want) {
					t.Fatalf("CheckAdaptiveSchema = %v, want invalid %q…", err, tc.want)
				}
				return
			}
			if string(got) != tc.want {
				t.Fatalf("CheckAdaptiveSchema = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestSetAdaptiveSchema(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	site, _ := f.newSite(t)
	if _, _, err := f.author.SetAdaptiveSchema(t.Context(), site, []byte(`[]`)); quire.ErrorCode(err) != quire.CodeInvalid {
		t.Fatalf("SetAdaptiveSchema(invalid) = %v, want invalid", err)
	}
	if _, _, err := f.db.AdaptiveSchema(t.Context(), site.ID); quire.ErrorCode(err) != quire.CodeNotFound {
		t.Fatalf("an invalid schema was kept: %v", err)
	}
	schema, updated, err := f.author.SetAdaptiveSchema(t.Context(), site, []byte(`{"type": "object", "properties": {}, "additionalProperties": false}`))
	if err != nil || updated.IsZero() {
		t.Fatalf("SetAdaptiveSchema = %s, %v, %v", schema, updated, err)
	}
	kept, _, err := f.db.AdaptiveSchema(t.Context(), site.ID)
	if err != nil || string(kept) != string(schema) || string(schema) != `{"type":"object","properties":{},"additionalProperties":false}` {
		t.Fatalf("kept %s, %v; answered %s", kept, err, schema)
	}
}
