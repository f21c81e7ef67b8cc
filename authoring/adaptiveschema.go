package authoring

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/quiredocs/quire"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// adaptiveSchemaShapeJSON is the shape an adaptive schema must have, from
// Contract §2 Site adaptive schema and the reference's SiteAdaptiveJSONSchema
// (which it follows but for $id, which the contract lists): an object schema
// whose properties are visitor attributes, each a boolean, a string (with or
// without an enum of values), a number, an array of those, or an object of
// attributes, each with a description; no other attributes.
const adaptiveSchemaShapeJSON = `{
  "type": "object",
  "required": ["type", "properties", "additionalProperties"],
  "properties": {
    "$schema": {"const": "http://json-schema.org/draft-07/schema#"},
    "$id": {"type": "string"},
    "type": {"const": "object"},
    "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/claim"}},
    "additionalProperties": {"const": false}
  },
  "additionalProperties": false,
  "$defs": {
    "primitive": {"oneOf": [
      {"type": "object", "required": ["type", "description"], "additionalProperties": false,
       "properties": {"type": {"const": "boolean"}, "description": {"type": "string"}}},
      {"type": "object", "required": ["type", "enum", "description"], "additionalProperties": false,
       "properties": {"type": {"const": "string"}, "enum": {"type": "array", "items": {"type": "string"}}, "description": {"type": "string"}}},
      {"type": "object", "required": ["type", "description"], "additionalProperties": false,
       "properties": {"type": {"enum": ["string", "number"]}, "description": {"type": "string"}}}
    ]},
    "claim": {"oneOf": [
      {"$ref": "#/$defs/primitive"},
      {"type": "object", "required": ["type", "description", "items"], "additionalProperties": false,
       "properties": {"type": {"const": "array"}, "description": {"type": "string"}, "items": {"$ref": "#/$defs/primitive"}}},
      {"type": "object", "required": ["type", "description", "properties", "additionalProperties"], "additionalProperties": false,
       "properties": {"type": {"const": "object"}, "description": {"type": "string"},
         "properties": {"type": "object", "additionalProperties": {"$ref": "#/$defs/claim"}},
         "additionalProperties": {"const": false}}}
    ]}
  }
}`

// adaptiveSchemaShape is adaptiveSchemaShapeJSON compiled; it never changes.
var adaptiveSchemaShape = func() *jsonschema.Schema {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(adaptiveSchemaShapeJSON))
	if err != nil {
		panic(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("quire:adaptive-schema-shape.json", doc); err != nil {
		panic(err)
	}
	return c.MustCompile("quire:adaptive-schema-shape.json")
}()

// CheckAdaptiveSchema validates a site's adaptive schema and returns it
// compacted: a JSON Schema draft-07 (checked against the draft-07
// metaschema) of the shape of Contract §2 Site adaptive schema, which the
// reference details (adaptiveSchemaShape).
func CheckAdaptiveSchema(raw json.RawMessage) (json.RawMessage, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "jsonSchema: malformed JSON")
	}
	if _, ok := doc.(map[string]any); !ok {
		return nil, quire.Errorf(quire.CodeInvalid, "jsonSchema: must be an object")
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("quire:adaptive-schema.json", doc); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "jsonSchema: %s", schemaError(err))
	}
	if _, err := c.Compile("quire:adaptive-schema.json"); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "jsonSchema: not a valid JSON Schema draft-07: %s", schemaError(err))
	}
	if err := adaptiveSchemaShape.Validate(doc); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "jsonSchema: must describe visitor attributes as the contract says (type object, properties of boolean, string, number, array or object attributes each with a description, additionalProperties false): %s", schemaError(err))
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "jsonSchema: malformed JSON")
	}
	return buf.Bytes(), nil
}

// schemaError shortens a jsonschema error to its first line.
func schemaError(err error) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	return msg
}

// SetAdaptiveSchema sets site's adaptive schema, once CheckAdaptiveSchema
// passes it, and returns it as kept, compacted, with when it was set.
func (a *Author) SetAdaptiveSchema(ctx context.Context, site *quire.Site, raw json.RawMessage) (json.RawMessage, time.Time, error) {
	schema, err := CheckAdaptiveSchema(raw)
	if err != nil {
		return nil, time.Time{}, err
	}
	updated, err := a.DB.SetAdaptiveSchema(ctx, site.ID, schema)
	return schema, updated, err
}
