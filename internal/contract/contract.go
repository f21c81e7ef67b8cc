// Package contract checks API responses against the reference OpenAPI
// document (../shared/reference/openapi-subset.json): each success status must
// be one the operation documents, and each body must validate against the
// operation's response schema. Tests run every response through it.
package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Reference is a loaded reference document.
type Reference struct {
	doc      map[string]any
	ops      []operation
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	schemas  map[string]*jsonschema.Schema
}

type operation struct {
	method   string
	template string // e.g. /orgs/{organizationId}/members
	re       *regexp.Regexp
	params   int
}

const resourceURL = "file:///openapi-subset.json"

// Find locates the reference document: $QUIRE_REFERENCE, else
// shared/reference/openapi-subset.json in a parent folder of dir.
func Find(dir string) string {
	if p := os.Getenv("QUIRE_REFERENCE"); p != "" {
		return p
	}
	dir, _ = filepath.Abs(dir)
	for {
		for _, p := range []string{
			filepath.Join(dir, "shared", "reference", "openapi-subset.json"),
			filepath.Join(dir, "..", "shared", "reference", "openapi-subset.json"),
		} {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Load reads and indexes a reference document.
func Load(path string) (*Reference, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(compileLenient)
	if err := c.AddResource(resourceURL, doc); err != nil {
		return nil, err
	}
	ref := &Reference{doc: doc.(map[string]any), compiler: c, schemas: map[string]*jsonschema.Schema{}}
	paths, _ := ref.doc["paths"].(map[string]any)
	for tmpl, item := range paths {
		methods, _ := item.(map[string]any)
		for m := range methods {
			switch m {
			case "get", "post", "put", "patch", "delete":
			default:
				continue
			}
			ref.ops = append(ref.ops, operation{
				method: strings.ToUpper(m), template: tmpl, re: templateRegexp(tmpl),
				params: strings.Count(tmpl, "{"),
			})
		}
	}
	// Prefer the most literal template when several match (/orgs/{id}/sso vs /orgs/{id}/{x}).
	sort.Slice(ref.ops, func(i, j int) bool { return ref.ops[i].params < ref.ops[j].params })
	return ref, nil
}

// Check validates one response. path is the request path without the /v1
// prefix and query. It returns nil for operations the reference does not
// describe.
func (ref *Reference) Check(method, path string, status int, body []byte) error {
	op := ref.find(method, path)
	if op == nil {
		return nil
	}
	responses, _ := ref.lookup("paths", op.template, strings.ToLower(op.method), "responses").(map[string]any)
	resp, documented := responses[strconv.Itoa(status)]
	if !documented {
		if status < 400 {
			codes := make([]string, 0, len(responses))
			for c := range responses {
				codes = append(codes, c)
			}
			sort.Strings(codes)
			return fmt.Errorf("%s %s: status %d is not documented (documented: %s)", method, op.template, status, strings.Join(codes, ", "))
		}
		return checkErrorShape(status, body)
	}
	ptr := []string{"paths", op.template, strings.ToLower(op.method), "responses", strconv.Itoa(status)}
	if r, ok := resp.(map[string]any)["$ref"].(string); ok {
		ptr = strings.Split(strings.TrimPrefix(r, "#/"), "/")
		resp = ref.lookup(ptr...)
	}
	content, _ := resp.(map[string]any)["content"].(map[string]any)
	if media, ok := content["text/event-stream"].(map[string]any); ok && media["schema"] != nil && status < 400 {
		return ref.checkEvents(method, op.template, append(ptr, "content", "text/event-stream", "schema"), body)
	}
	media, ok := content["application/json"].(map[string]any)
	if !ok || media["schema"] == nil {
		if len(bytes.TrimSpace(body)) != 0 && status < 400 {
			return fmt.Errorf("%s %s: status %d documents no body, got %q", method, op.template, status, truncate(body))
		}
		if status >= 400 {
			return checkErrorShape(status, body)
		}
		return nil
	}
	schema, err := ref.schema(append(ptr, "content", "application/json", "schema"))
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("%s %s: status %d: body is not JSON: %v", method, op.template, status, err)
	}
	if err := schema.Validate(inst); err != nil {
		return fmt.Errorf("%s %s: status %d: body does not match the reference schema: %v\nbody: %s", method, op.template, status, err, truncate(body))
	}
	return nil
}

// checkEvents validates a server-sent event stream: the data of each
// unnamed (message) event must match the schema; named events, such as an
// error told after the stream began, are not described by the reference.
func (ref *Reference) checkEvents(method, template string, ptr []string, body []byte) error {
	schema, err := ref.schema(ptr)
	if err != nil {
		return err
	}
	for i, event := range strings.Split(strings.ReplaceAll(string(body), "\r\n", "\n"), "\n\n") {
		var name string
		var data []string
		for line := range strings.Lines(event) {
			line = strings.TrimSuffix(line, "\n")
			field, value, _ := strings.Cut(line, ":")
			value = strings.TrimPrefix(value, " ")
			switch field {
			case "event":
				name = value
			case "data":
				data = append(data, value)
			}
		}
		if len(data) == 0 || name != "" && name != "message" {
			continue
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(strings.Join(data, "\n")))
		if err != nil {
			return fmt.Errorf("%s %s: event %d: data is not JSON: %v", method, template, i, err)
		}
		if err := schema.Validate(inst); err != nil {
			return fmt.Errorf("%s %s: event %d does not match the reference schema: %v\nevent: %s", method, template, i, err, truncate([]byte(event)))
		}
	}
	return nil
}

// templateRegexp matches the paths of a template: each {param} is one segment.
func templateRegexp(tmpl string) *regexp.Regexp {
	segs := strings.Split(tmpl, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			segs[i] = `[^/]+`
		} else {
			segs[i] = regexp.QuoteMeta(seg)
		}
	}
	return regexp.MustCompile("^" + strings.Join(segs, "/") + "$")
}

func (ref *Reference) find(method, path string) *operation {
	for i := range ref.ops {
		if ref.ops[i].method == method && ref.ops[i].re.MatchString(path) {
			return &ref.ops[i]
		}
	}
	return nil
}

func (ref *Reference) lookup(keys ...string) any {
	var v any = ref.doc
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func (ref *Reference) schema(ptr []string) (*jsonschema.Schema, error) {
	esc := make([]string, len(ptr))
	for i, p := range ptr {
		esc[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1")
	}
	loc := resourceURL + "#/" + strings.Join(esc, "/")
	ref.mu.Lock()
	defer ref.mu.Unlock()
	if s, ok := ref.schemas[loc]; ok {
		return s, nil
	}
	s, err := ref.compiler.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("compile %s: %w", loc, err)
	}
	ref.schemas[loc] = s
	return s, nil
}

// checkErrorShape checks {"error":{"code":status,"message":"…"}}.
func checkErrorShape(status int, body []byte) error {
	var e struct {
		Error *struct {
			Code    int     `json:"code"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == nil || e.Error.Message == nil || *e.Error.Message == "" {
		return fmt.Errorf("status %d: error body must be {\"error\":{\"code\",\"message\"}}, got %q", status, truncate(body))
	}
	if e.Error.Code != status {
		return fmt.Errorf("status %d: error.code is %d", status, e.Error.Code)
	}
	return nil
}

func truncate(b []byte) string {
	if len(b) > 2000 {
		return string(b[:2000]) + "…"
	}
	return string(b)
}

// compileLenient compiles the reference's patterns, written for ECMA-262,
// with Go's regexp. Go has no lookaround: a pattern with (?!…), (?=…),
// (?<!…) or (?<=…) groups is checked without them, so less strictly than
// the reference means (SiteRedirectSourcePath is one).
func compileLenient(pattern string) (jsonschema.Regexp, error) {
	re, err := regexp.Compile(pattern)
	if err == nil {
		return re, nil
	}
	return regexp.Compile(dropLookaround(pattern))
}

// dropLookaround removes the lookaround groups of a pattern.
func dropLookaround(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			b.WriteString(p[i : i+2])
			i++
			continue
		}
		if p[i] == '(' && (strings.HasPrefix(p[i:], "(?!") || strings.HasPrefix(p[i:], "(?=") ||
			strings.HasPrefix(p[i:], "(?<!") || strings.HasPrefix(p[i:], "(?<=")) {
			depth := 0
			for ; i < len(p); i++ {
				if p[i] == '\\' {
					i++
					continue
				}
				if p[i] == '(' {
					depth++
				} else if p[i] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
