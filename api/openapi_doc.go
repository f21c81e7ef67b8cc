package api

import (
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// GET /v1/openapi.json describes what this server serves, from the routes
// themselves (routes.go): every path and method, its path parameters and
// whether it needs a token. Request and response shapes are those of the
// reference OpenAPI document of the API family, which Quire follows.

// route is a registered route, for the document.
type route struct {
	method, path string // path as registered, e.g. /v1/spaces/{spaceId}
	public       bool   // served without a token
}

var pathParam = regexp.MustCompile(`\{([A-Za-z0-9_]+)(\.\.\.)?\}`)

// openAPI builds the document once: routes do not change after New.
func (s *Server) openAPI() map[string]any {
	s.openAPIOnce.Do(func() {
		paths := map[string]map[string]any{}
		for _, rt := range s.routeList {
			rest, ok := strings.CutPrefix(rt.path, "/v1/")
			if !ok {
				continue
			}
			rest = strings.TrimSuffix(rest, "{$}") // GET /v1/{$} is the reference's GET /
			p := "/" + pathParam.ReplaceAllString(rest, "{$1}")
			params := []any{}
			for _, m := range pathParam.FindAllStringSubmatch(rest, -1) {
				params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
			}
			op := map[string]any{
				"operationId": strings.ToLower(rt.method) + pathParam.ReplaceAllString(strings.ReplaceAll(p, "/", "_"), "by_$1"),
				"parameters":  params,
				"responses":   map[string]any{"default": map[string]any{"description": "As the API family's reference document describes; errors are {\"error\":{\"code\",\"message\"}}."}},
			}
			if rt.public {
				op["security"] = []any{}
			}
			if paths[p] == nil {
				paths[p] = map[string]any{}
			}
			paths[p][strings.ToLower(rt.method)] = op
		}
		s.openAPIDoc = map[string]any{
			"openapi": "3.0.3",
			"info":    map[string]any{"title": "Quire API", "version": "1", "description": "The operations this Quire server serves."},
			"servers": []any{map[string]any{"url": s.publicURL + "/v1"}},
			"paths":   paths,
			"components": map[string]any{"securitySchemes": map[string]any{
				"bearer": map[string]any{"type": "http", "scheme": "bearer"},
			}},
			"security": []any{map[string]any{"bearer": []any{}}},
		}
	})
	return s.openAPIDoc
}

func (s *Server) getOpenAPI(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, s.openAPI())
}

// openAPIState is the document, made on first use.
type openAPIState struct {
	routeList   []route
	openAPIOnce sync.Once
	openAPIDoc  map[string]any
}
