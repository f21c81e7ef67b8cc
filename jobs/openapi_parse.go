package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	oasyaml "github.com/oasdiff/yaml"
	"gopkg.in/yaml.v3"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// ParseSpec parses a document, JSON or YAML, as OpenAPI 3.x or Swagger 2
// and validates it with kin-openapi. On success the result holds the
// document as given, its format ("2.0" or the openapi field) and, for YAML,
// the document as JSON; otherwise
// a PARSE_ERROR with the validator's messages. External $refs are refused,
// never fetched: they would reach hosts past the outbound checks. It does
// no other I/O.
func ParseSpec(ctx context.Context, data []byte) (res store.OpenAPIResult) {
	defer func() {
		// A validator bug must not take the worker down, nor be retried forever.
		if p := recover(); p != nil {
			res = specFailure(quire.SpecParseError, fmt.Sprintf("the document could not be processed: %v", p))
		}
	}()
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return specFailure(quire.SpecParseError, "the document is not UTF-8 text")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return specFailure(quire.SpecParseError, "the document is empty")
	}
	var head struct {
		OpenAPI yaml.Node `yaml:"openapi"` // Kind 0 when absent
		Swagger yaml.Node `yaml:"swagger"`
	}
	if err := yaml.Unmarshal(data, &head); err != nil {
		return specFailure(quire.SpecParseError, "the document is not a JSON or YAML object: "+err.Error())
	}
	var (
		doc    *openapi3.T
		format string
		err    error
	)
	loader := openapi3.NewLoader() // IsExternalRefsAllowed stays false
	loader.Context = ctx
	switch {
	case head.OpenAPI.Kind != 0:
		if format = head.OpenAPI.Value; head.OpenAPI.Tag != "!!str" || !strings.HasPrefix(format, "3.") {
			return specFailure(quire.SpecParseError, fmt.Sprintf("openapi: version %q is not supported: want a string 3.x, or Swagger 2.0", format))
		}
		doc, err = loader.LoadFromData(data)
	case head.Swagger.Kind != 0:
		if format = head.Swagger.Value; head.Swagger.Tag != "!!str" || format != "2.0" {
			return specFailure(quire.SpecParseError, fmt.Sprintf("swagger: version %q is not supported: want the string 2.0, or OpenAPI 3.x", format))
		}
		doc, err = swaggerToV3(loader, data)
	default:
		return specFailure(quire.SpecParseError, `the document is not an OpenAPI 3.x or Swagger 2.0 document: it has no "openapi" or "swagger" field`)
	}
	if err != nil {
		return specFailure(quire.SpecParseError, "the document could not be read: "+err.Error())
	}
	if err := doc.Validate(ctx, openapi3.EnableMultiError()); err != nil {
		var messages []string
		if me, ok := errors.AsType[openapi3.MultiError](err); ok {
			for _, e := range me {
				messages = append(messages, e.Error())
			}
		} else {
			messages = append(messages, err.Error())
		}
		return specFailure(quire.SpecParseError, messages...)
	}
	res = store.OpenAPIResult{Format: format, Document: string(data)}
	if !json.Valid(data) {
		// YAML: kept as given, and as JSON for the answers that embed it.
		js, err := oasyaml.YAMLToJSON(data)
		if err != nil {
			return specFailure(quire.SpecParseError, "the document could not be converted to JSON: "+err.Error())
		}
		res.JSON = string(js)
	}
	return res
}

// swaggerToV3 reads a Swagger 2.0 document and converts it to OpenAPI 3,
// which is what kin-openapi validates.
func swaggerToV3(loader *openapi3.Loader, data []byte) (*openapi3.T, error) {
	js, err := oasyaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var doc2 openapi2.T
	if err := doc2.UnmarshalJSON(js); err != nil {
		return nil, err
	}
	return openapi2conv.ToV3WithLoader(&doc2, loader, nil)
}
