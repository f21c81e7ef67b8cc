package wire

import (
	"slices"

	"github.com/quiredocs/quire"
)

// ComputeDocument is the body of POST S/content/computed/document
// (getComputedDocument): the source to compute, of the one type Quire
// computes, builtin:openapi, and the seed of the blocks' keys.
type ComputeDocument struct {
	Source *ComputedSource `json:"source"`
	Seed   *string         `json:"seed"`
}

// ComputedSource is a computed content source (the reference's
// ComputedContentSourceDocument) as far as Quire reads it.
type ComputedSource struct {
	Type         *string `json:"type"`
	Dependencies struct {
		Spec *struct {
			Ref *struct {
				Kind string `json:"kind"`
				Spec string `json:"spec"`
			} `json:"ref"`
		} `json:"spec"`
	} `json:"dependencies"`
	Props struct {
		Doc    string `json:"doc"`
		Page   string `json:"page"`
		Method string `json:"method"`
	} `json:"props"`
}

// ComputedOpenAPI is the source type of documents computed from an
// organization's API specification.
const ComputedOpenAPI = "builtin:openapi"

// computedDocs are the documents of a specification builtin:openapi
// computes, and whether each names a page.
var computedDocs = map[string]bool{"models": false, "operations": true, "info": true, "operation": true, "tag": true}

// computedMethods are the methods of an operation document.
var computedMethods = []string{"get", "post", "put", "delete", "patch", "options", "head", "trace", "hook"}

// Validate checks the source as builtin:openapi takes it, and the seed.
func (b *ComputeDocument) Validate() error {
	if err := quire.CheckRequired("source", b.Source != nil); err != nil {
		return err
	}
	if err := quire.CheckRequired("seed", b.Seed != nil); err != nil {
		return err
	}
	s := b.Source
	if err := quire.CheckRequired("source.type", s.Type != nil); err != nil {
		return err
	}
	if *s.Type != ComputedOpenAPI {
		return quire.Errorf(quire.CodeInvalid, "source.type: Quire computes only %s documents, not %q", ComputedOpenAPI, *s.Type)
	}
	spec := s.Dependencies.Spec
	if spec == nil || spec.Ref == nil || spec.Ref.Kind != "openapi" || spec.Ref.Spec == "" {
		return quire.Errorf(quire.CodeInvalid, "source.dependencies.spec.ref: must be {\"kind\":\"openapi\",\"spec\":\"<slug>\"}")
	}
	needsPage, ok := computedDocs[s.Props.Doc]
	if !ok {
		return quire.Errorf(quire.CodeInvalid, "source.props.doc: must be models, operations, info, operation or tag")
	}
	if needsPage && s.Props.Page == "" {
		return quire.Errorf(quire.CodeInvalid, "source.props.page: is required for a %s document", s.Props.Doc)
	}
	if s.Props.Doc == "operation" && !slices.Contains(computedMethods, s.Props.Method) {
		return quire.Errorf(quire.CodeInvalid, "source.props.method: must be one of %v", computedMethods)
	}
	return nil
}
