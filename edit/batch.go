// Package edit applies authoring batches (POST CR/content) to a revision's
// content: it parses and checks the batch, then builds the next tree. It
// does no I/O: file bytes are fetched and stored by package authoring.
package edit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/condition"
	"github.com/quiredocs/quire/render"
)

// Limits of a batch, from the reference (updateChangeRequestContent).
const (
	MaxChanges      = 50
	MaxFilesPerOp   = 20
	MaxInlineFile   = 1 << 20 // decoded base64 bytes
	MaxFileName     = 256
	MaxSlug         = quire.MaxSlug
	MaxTitle        = 256
	MaxURL          = 2048
	MaxMarkdownSize = render.MaxMarkdownSize
)

// Operations of a change.
const (
	OpInsertPage  = "insert_page"
	OpUpdatePage  = "update_page"
	OpDeletePage  = "delete_page"
	OpRevertPage  = "revert_page"
	OpInsertFiles = "insert_files"
)

// Change is one operation of a batch.
type Change struct {
	Op   string
	Page string // update, delete, revert: the page
	Ref  string // insert: the batch-local name of the new page

	// Where the page goes. For update, IntoSet tells whether "into" was given
	// (Into "" with IntoSet means the top level).
	Into    string
	IntoSet bool
	At      *int

	// Page metadata; nil leaves it as it is.
	Title, Slug, Emoji, Icon, Description, Condition *string
	Hidden, NoIndex, NoRobotsIndex                   *bool
	Markdown                                         *string // the document, as markdown

	Revision string // revert: the revision to revert to ("" for the base)

	Files []FileInput // insert_files
}

// FileInput is one file of an insert_files change. The caller fetches URL
// sources and stores the bytes, then fills File before Apply.
type FileInput struct {
	Ref, Name, ContentType, URL string
	Data                        []byte // decoded base64 source
	File                        *FileInfo
}

// FileInfo is what the caller learned storing a file's bytes.
type FileInfo struct {
	Blob          string
	Size          int64
	ContentType   string
	Width, Height int
}

// rawChange is the wire form of a change; unknown fields are refused so a
// misspelt field is an error rather than silently ignored.
type rawChange struct {
	Operation     string          `json:"operation"`
	Page          *string         `json:"page"`
	Ref           *string         `json:"ref"`
	Into          json.RawMessage `json:"into"`
	At            *int            `json:"at"`
	Title         *string         `json:"title"`
	Slug          *string         `json:"slug"`
	Emoji         *string         `json:"emoji"`
	Icon          *string         `json:"icon"`
	Description   *string         `json:"description"`
	Condition     *string         `json:"condition"`
	Hidden        *bool           `json:"hidden"`
	NoIndex       *bool           `json:"noIndex"`
	NoRobotsIndex *bool           `json:"noRobotsIndex"`
	Document      inPlace         `json:"document"`
	Revision      *string         `json:"revision"`
	Block         []string        `json:"block"`
	Files         inPlace         `json:"files"` // rawFiles, decoded by parseFiles
}

type rawFile struct {
	Ref         *string `json:"ref"`
	Name        string  `json:"name"`
	ContentType *string `json:"contentType"`
	URL         *string `json:"url"`
	Base64      inPlace `json:"base64"` // decoded by parseFiles in place
}

// Parse reads a batch body: {"changes": [...]}. Every error names the field
// at fault, and one bad change rejects the whole batch.
func Parse(body []byte) ([]Change, error) {
	if err := checkDocuments(body); err != nil {
		return nil, err
	}
	var raw struct {
		Changes []inPlace `json:"changes"`
	}
	if err := strictUnmarshal(body, &raw); err != nil {
		if field, problem, ok := decodeProblem(err); ok {
			if field == "" {
				field = "body"
			}
			return nil, invalid("%s: %s", field, problem)
		}
		return nil, invalid("body: %v", err)
	}
	switch {
	case raw.Changes == nil:
		return nil, invalid("changes: required")
	case len(raw.Changes) == 0:
		return nil, invalid("changes: at least one change is required")
	case len(raw.Changes) > MaxChanges:
		return nil, invalid("changes: at most %d changes per batch, got %d", MaxChanges, len(raw.Changes))
	}
	changes := items(lastMember(members(body), "changes"))
	if len(changes) != len(raw.Changes) { // as decoded: never seen, but a change must not go missing
		return nil, invalid("body: malformed JSON")
	}
	out := make([]Change, len(raw.Changes))
	for i, rc := range changes {
		c, err := parseChange(rc)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, ":") { // about the change as a whole
				msg = "." + msg
			}
			return nil, invalid("changes[%d]%s", i, msg)
		}
		out[i] = c
	}
	return out, nil
}

func invalid(format string, args ...any) error {
	return quire.Errorf(quire.CodeInvalid, format, args...)
}

// strictUnmarshal decodes b, one JSON value, into v, a pointer to a
// struct, refusing a name v has no field for. It decodes b in place, as
// json.Unmarshal does: a json.Decoder would first copy b into its buffer
// (for a batch of 32 MiB, some 200 MB in all).
func strictUnmarshal(b []byte, v any) error {
	unknown, err := unknownName(b, reflect.TypeOf(v).Elem())
	switch {
	case err == errTrailing:
		return fmt.Errorf("trailing data after the JSON value")
	case err != nil:
		return json.Unmarshal(b, v) // its error says what is malformed
	case unknown != "":
		return fmt.Errorf("json: unknown field %q", unknown)
	}
	return json.Unmarshal(b, v)
}

var errTrailing = errors.New("trailing data")

// unknownName reads b and returns the first name of its object that struct
// t has no field for, as encoding/json matches them; "" when none, or b is
// no object. The error is errTrailing when more follows the value.
func unknownName(b []byte, t reflect.Type) (string, error) {
	d := render.NewDecoder(bytes.NewBuffer(b)) // reads b in place
	unknown := ""
	if d.PeekKind() == '{' {
		for tok, err := d.ReadToken(); tok.Kind() != '}'; tok, err = d.ReadToken() {
			if err != nil {
				return "", err
			}
			if tok.Kind() != '{' {
				if name := tok.String(); unknown == "" && !hasField(t, name) {
					unknown = name
				}
				if err := d.SkipValue(); err != nil {
					return "", err
				}
			}
		}
	} else if err := d.SkipValue(); err != nil {
		return "", err
	}
	if _, err := d.ReadToken(); err != io.EOF {
		return "", errTrailing
	}
	return unknown, nil
}

// hasField reports whether struct t has a field encoding/json decodes name
// into.
func hasField(t reflect.Type, name string) bool {
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" {
			tag = f.Name
		}
		if f.IsExported() && tag != "-" && strings.EqualFold(tag, name) {
			return true
		}
	}
	return false
}

// decodeProblem names the field a strict decode failed on ("" for the value
// itself) and the problem; ok is false for other errors, such as bad syntax.
func decodeProblem(err error) (field, problem string, ok bool) {
	if te, isType := errors.AsType[*json.UnmarshalTypeError](err); isType {
		return te.Field, "must be " + jsonKind(te.Type), true
	}
	if name, isUnknown := strings.CutPrefix(err.Error(), "json: unknown field "); isUnknown {
		if n, err := strconv.Unquote(name); err == nil {
			name = n
		}
		return name, "unknown field", true
	}
	return "", "", false
}

// fieldError is err, from decoding the value at prefix, as "<field>: <problem>".
func fieldError(prefix string, err error) error {
	field, problem, ok := decodeProblem(err)
	if !ok {
		return fmt.Errorf("%s: %v", prefix, err)
	}
	if field != "" && prefix != "" {
		field = "." + field
	}
	return fmt.Errorf("%s%s: %s", prefix, field, problem)
}

func jsonKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "an object"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Slice, reflect.Array:
		return "an array"
	default:
		return "an object"
	}
}

// parseChange checks one change; its errors start with the field name.
func parseChange(b []byte) (Change, error) {
	var r rawChange
	if err := strictUnmarshal(b, &r); err != nil {
		return Change{}, fieldError("", err)
	}
	if r.Document != nil || r.Files != nil {
		ms := members(b)
		r.Document = lastMember(ms, "document")
		if r.Files = lastMember(ms, "files"); string(r.Files) == "null" {
			r.Files = nil // as json.RawMessage had it
		}
	}
	c := Change{Op: r.Operation, At: r.At, Title: r.Title, Slug: r.Slug, Emoji: r.Emoji, Icon: r.Icon,
		Description: r.Description, Condition: r.Condition, Hidden: r.Hidden, NoIndex: r.NoIndex, NoRobotsIndex: r.NoRobotsIndex}
	if err := checkOperation(&r); err != nil {
		return c, err
	}
	if err := parsePlace(&r, &c); err != nil {
		return c, err
	}
	if err := checkMeta(&r); err != nil {
		return c, err
	}
	if err := parseContent(&r, &c); err != nil {
		return c, err
	}
	return c, nil
}

// checkOperation checks that the change names a known operation and only
// fields that operation takes.
func checkOperation(r *rawChange) error {
	pageFields := r.Title != nil || r.Slug != nil || r.Emoji != nil || r.Icon != nil || r.Description != nil ||
		r.Condition != nil || r.Hidden != nil || r.NoIndex != nil || r.NoRobotsIndex != nil ||
		r.Document != nil || r.Into != nil || r.At != nil
	switch r.Operation {
	case OpInsertPage, OpUpdatePage:
		if r.Files != nil || r.Revision != nil || r.Block != nil {
			return fmt.Errorf("operation: %s takes no files, revision or block", r.Operation)
		}
	case OpDeletePage, OpRevertPage:
		if pageFields || r.Files != nil || r.Ref != nil {
			return fmt.Errorf("operation: %s takes only page%s", r.Operation, map[bool]string{true: ", revision and block"}[r.Operation == OpRevertPage])
		}
		if r.Operation == OpDeletePage && (r.Revision != nil || r.Block != nil) {
			return fmt.Errorf("operation: delete_page takes only page")
		}
	case OpInsertFiles:
		if pageFields || r.Page != nil || r.Ref != nil || r.Revision != nil || r.Block != nil {
			return fmt.Errorf("operation: insert_files takes only files")
		}
	case "":
		return fmt.Errorf("operation: required")
	default:
		return fmt.Errorf("operation: %q is not one of insert_page, update_page, delete_page, revert_page, insert_files", r.Operation)
	}
	return nil
}

// parsePlace reads which page the change is about and where it goes: page,
// ref, into and at.
func parsePlace(r *rawChange, c *Change) error {
	if r.Operation == OpInsertPage {
		if r.Page != nil {
			return fmt.Errorf("page: insert_page creates a page; use ref to name it")
		}
	} else if r.Operation != OpInsertFiles {
		if r.Page == nil || *r.Page == "" {
			return fmt.Errorf("page: required")
		}
		c.Page = *r.Page
	}
	if r.Ref != nil {
		if r.Operation != OpInsertPage {
			return fmt.Errorf("ref: only insert_page takes a ref")
		}
		if err := checkRef(*r.Ref); err != nil {
			return fmt.Errorf("ref: %v", err)
		}
		c.Ref = *r.Ref
	}
	if r.Into != nil {
		var into *string
		if err := json.Unmarshal(r.Into, &into); err != nil {
			return fmt.Errorf("into: must be a page id or null")
		}
		if into == nil && r.Operation == OpInsertPage {
			return fmt.Errorf("into: must be a page id; omit it for the top level")
		}
		c.IntoSet = true
		if into != nil {
			if *into == "" {
				return fmt.Errorf("into: must not be empty")
			}
			c.Into = *into
		}
	}
	if r.At != nil && *r.At < 0 {
		return fmt.Errorf("at: must be 0 or more")
	}
	return nil
}

// parseContent reads what the change puts in place: document, revision,
// block and files.
func parseContent(r *rawChange, c *Change) error {
	if r.Operation == OpInsertPage && r.Document == nil {
		return fmt.Errorf("document: required")
	}
	if r.Document != nil {
		md, err := parseDocument(r.Document)
		if err != nil {
			return fmt.Errorf("document: %v", err)
		}
		if err := checkChars("document.markdown", md, true); err != nil {
			return err // NUL and the like: PostgreSQL's text cannot hold NUL, no one means them
		}
		c.Markdown = md
	}
	if r.Revision != nil {
		if *r.Revision == "" {
			return fmt.Errorf("revision: must not be empty")
		}
		c.Revision = *r.Revision
	}
	if r.Block != nil {
		return fmt.Errorf("block: reverting single blocks is not supported; revert the whole page")
	}
	if r.Operation == OpInsertFiles {
		list := items(r.Files)
		if r.Files != nil && list == nil {
			return fmt.Errorf("files: must be an array")
		}
		files, err := parseFiles(list)
		if err != nil {
			return err
		}
		c.Files = files
	}
	return nil
}

func checkMeta(r *rawChange) error {
	for _, f := range []struct {
		name      string
		v         *string
		multiline bool
	}{{"title", r.Title, false}, {"slug", r.Slug, false}, {"emoji", r.Emoji, false}, {"icon", r.Icon, false},
		{"description", r.Description, true}, {"condition", r.Condition, true}} {
		if err := checkChars(f.name, f.v, f.multiline); err != nil {
			return err
		}
	}
	if r.Title != nil {
		if *r.Title == "" {
			return fmt.Errorf("title: must not be empty")
		}
		if utf8.RuneCountInString(*r.Title) > MaxTitle {
			return fmt.Errorf("title: at most %d characters", MaxTitle)
		}
	}
	if r.Slug != nil {
		if err := quire.CheckSlug(*r.Slug); err != nil {
			return fmt.Errorf("slug: %v", err)
		}
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"emoji", r.Emoji}, {"icon", r.Icon}} {
		if f.v != nil && utf8.RuneCountInString(*f.v) > 50 {
			return fmt.Errorf("%s: at most 50 characters", f.name)
		}
	}
	if r.Description != nil && utf8.RuneCountInString(*r.Description) > 1000 {
		return fmt.Errorf("description: at most 1000 characters")
	}
	if r.Condition != nil && *r.Condition != "" { // "" removes it
		if err := condition.Check("condition", *r.Condition); err != nil {
			return errors.New(quire.ErrorMessage(err))
		}
	}
	return nil
}

// checkChars refuses invalid UTF-8 and control characters (quire.CheckChars)
// in a field given.
func checkChars(field string, v *string, multiline bool) error {
	if v == nil {
		return nil
	}
	if err := quire.CheckChars(field, *v, multiline); err != nil {
		return errors.New(quire.ErrorMessage(err))
	}
	return nil
}

// parseDocument accepts {"markdown": "…"}, a JSON document {"document":
// {…}} (written as markdown) and the empty document {}.
func parseDocument(b []byte) (*string, error) {
	ms := members(b)
	if ms == nil {
		return nil, fmt.Errorf("must be an object with markdown")
	}
	doc := map[string][]byte{}
	for _, m := range ms {
		doc[m.name] = m.value
	}
	if len(doc) == 0 {
		empty := ""
		return &empty, nil
	}
	var md string
	field := "markdown" // the field holding the page's body
	if raw, ok := doc["document"]; ok && len(doc) == 1 {
		field = "document"
		var d map[string]any
		if err := json.Unmarshal(raw, &d); err != nil || d == nil {
			return nil, fmt.Errorf("document: must be a JSON document object")
		}
		var err error
		if md, err = render.Markdown(d); err != nil {
			return nil, err
		}
	} else {
		raw, ok := doc["markdown"]
		if !ok || len(doc) != 1 {
			return nil, fmt.Errorf("must be {\"markdown\": …}, {\"document\": …} or {}")
		}
		if err := json.Unmarshal(raw, &md); err != nil {
			return nil, fmt.Errorf("markdown: must be a string")
		}
	}
	md, err := storedMarkdown(field, md)
	if err != nil {
		return nil, err
	}
	return &md, nil
}

// storedMarkdown is md as a page's body is stored: LF line endings, at most
// MaxMarkdownSize bytes and within the bounds of the document form, which
// every read of the page as a document builds (website imports come through
// here too). field names what held md in a refusal past the bounds.
func storedMarkdown(field, md string) (string, error) {
	md = render.NormalizeLineEndings(md) // CRLF and CR line endings are stored as LF
	if len(md) > MaxMarkdownSize {
		return "", fmt.Errorf("markdown: at most %d bytes", MaxMarkdownSize)
	}
	if err := render.CheckDocument(md); err != nil {
		return "", fmt.Errorf("%s: %s", field, quire.ErrorMessage(err))
	}
	return md, nil
}

// DocumentMarkdown converts the reference's JSON document d, given in the
// field field, to the markdown it is stored as, by the path a page's
// document takes (render.Markdown, then the checks of a page's body, then
// no NUL or other control characters but line breaks). Refusals are
// CodeInvalid and name field.
func DocumentMarkdown(field string, d map[string]any) (string, error) {
	md, err := render.Markdown(d)
	if err != nil {
		// render names the place from "document": the document is field.
		return "", quire.Errorf(quire.CodeInvalid, "%s%s", field, strings.TrimPrefix(err.Error(), "document"))
	}
	return Markdown(field, md)
}

// Markdown is markdown md, given in the field field, as a page's body is
// stored (see DocumentMarkdown), or a CodeInvalid refusal naming field.
func Markdown(field, md string) (string, error) {
	md, err := storedMarkdown(field, md)
	if err == nil {
		err = checkChars(field, &md, true)
	}
	if err != nil {
		msg := err.Error()
		if !strings.HasPrefix(msg, field+":") {
			msg = field + ": " + strings.TrimPrefix(msg, "markdown: ")
		}
		return "", quire.Errorf(quire.CodeInvalid, "%s", msg)
	}
	return md, nil
}

func parseFiles(raw [][]byte) ([]FileInput, error) {
	switch {
	case raw == nil:
		return nil, fmt.Errorf("files: required")
	case len(raw) == 0:
		return nil, fmt.Errorf("files: at least one file is required")
	case len(raw) > MaxFilesPerOp:
		return nil, fmt.Errorf("files: at most %d files per change", MaxFilesPerOp)
	}
	out := make([]FileInput, len(raw))
	for i, rf := range raw {
		field := fmt.Sprintf("files[%d]", i)
		var f rawFile
		if err := strictUnmarshal(rf, &f); err != nil {
			return nil, fieldError(field, err)
		}
		if f.Base64 != nil {
			if f.Base64 = lastMember(members(rf), "base64"); string(f.Base64) == "null" {
				f.Base64 = nil // as for a *string
			}
		}
		in := FileInput{Name: f.Name}
		switch n := utf8.RuneCountInString(f.Name); {
		case n == 0:
			return nil, fmt.Errorf("%s.name: required", field)
		case n > MaxFileName:
			return nil, fmt.Errorf("%s.name: at most %d characters", field, MaxFileName)
		}
		if f.Ref != nil {
			if err := checkRef(*f.Ref); err != nil {
				return nil, fmt.Errorf("%s.ref: %v", field, err)
			}
			in.Ref = *f.Ref
		}
		if f.ContentType != nil {
			in.ContentType = *f.ContentType
		}
		switch {
		case (f.URL == nil) == (f.Base64 == nil):
			return nil, fmt.Errorf("%s: set exactly one of url and base64", field)
		case f.URL != nil:
			if len(*f.URL) > MaxURL || !isHTTPURL(*f.URL) {
				return nil, fmt.Errorf("%s.url: must be an http(s) URL of at most %d characters", field, MaxURL)
			}
			in.URL = *f.URL
		default:
			if in.ContentType == "" {
				return nil, fmt.Errorf("%s.contentType: required with base64", field)
			}
			if f.Base64[0] != '"' {
				return nil, fmt.Errorf("%s.base64: must be a string", field)
			}
			data, err := decodeBase64(f.Base64)
			if err != nil {
				return nil, fmt.Errorf("%s.base64: not valid base64", field)
			}
			if len(data) > MaxInlineFile {
				return nil, fmt.Errorf("%s.base64: at most %d bytes once decoded", field, MaxInlineFile)
			}
			in.Data = data
		}
		out[i] = in
	}
	return out, nil
}
