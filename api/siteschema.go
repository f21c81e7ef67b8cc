package api

import (
	"strings"

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
