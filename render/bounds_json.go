package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/quiredocs/quire"
)

// Bounds of a JSON document as a request gives it, from those of a page:
// CheckDocumentJSON counts them while it reads, before anything decodes the
// document, so a body past them costs no more than reading it to the first
// bound. Elements are counted as given, adjacent leaves before Markdown
// merges them. Markdown within the bounds is then checked as any page's
// (CheckDocument), which counts its own elements.
const (
	// MaxMarkdownSize bounds a page's markdown, in bytes.
	MaxMarkdownSize = 1 << 20
	// MaxJSONDepth bounds the JSON nesting of a document: four levels a
	// level of lists, as Document writes them, and some for what a list
	// item holds.
	MaxJSONDepth = 4*MaxNesting + 16
	// MaxJSONValues bounds a document's JSON values of every kind, data
	// included, each of which decoding allocates: Document writes six or
	// seven to an element.
	MaxJSONValues = 8 * MaxDocumentNodes
	// MaxJSONText bounds the bytes of a document's strings: the text of a
	// page's markdown, and some names (types, marks) for each element.
	MaxJSONText = MaxMarkdownSize + 32*MaxDocumentNodes
)

// elementObjects are the values of "object" that make a JSON node one of
// the elements MaxDocumentNodes bounds: blocks, inline elements, leaves,
// marks and fragments (a table cell is one). A text only holds leaves, as
// the document holds blocks.
var elementObjects = map[string]bool{"block": true, "inline": true, "leaf": true, "mark": true, "fragment": true}

// jsonCounts is what CheckDocumentJSON counts.
type jsonCounts struct {
	elements, values, text, depth int
}

// over names the bound c goes past, "" when none.
func (c *jsonCounts) over() string {
	switch {
	case c.elements > MaxDocumentNodes:
		return fmt.Sprintf("more than %d elements (blocks, inline elements, leaves, marks and fragments, counted as given); a page holds at most %d", MaxDocumentNodes, MaxDocumentNodes)
	case c.depth > MaxJSONDepth:
		return fmt.Sprintf("nested more than %d JSON levels deep; a page's blockquotes and lists nest at most %d levels, four JSON levels each", MaxJSONDepth, MaxNesting)
	case c.values > MaxJSONValues:
		return fmt.Sprintf("more than %d JSON values; a page of %d elements holds at most %d", MaxJSONValues, MaxDocumentNodes, MaxJSONValues)
	case c.text > MaxJSONText:
		return fmt.Sprintf("more than %d bytes of strings; a page holds at most %d", MaxJSONText, MaxJSONText)
	}
	return ""
}

// CheckDocumentJSON refuses a JSON document (or any JSON value) past the
// bounds of a page, as ReadDocumentJSON does. Malformed JSON is no error
// here: the decoding that follows reports it.
func CheckDocumentJSON(b []byte) error {
	err := ReadDocumentJSON(NewDecoder(bytes.NewBuffer(b)))
	if _, past := errors.AsType[*quire.Error](err); past {
		return err
	}
	return nil
}

// decoderOptions let through what encoding/json takes.
var decoderOptions = []jsontext.Options{jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)}

// NewDecoder is a decoder of JSON from r for ReadDocumentJSON: it takes
// what encoding/json takes (repeated names, invalid UTF-8).
func NewDecoder(r io.Reader) *jsontext.Decoder { return jsontext.NewDecoder(r, decoderOptions...) }

// ReadDocumentJSON reads the next JSON value from d, counting its elements,
// values, nesting and string bytes, and stops at the first bound it goes
// past with a CodeInvalid error naming the bound (the caller names the
// field), a *quire.Error. Other errors are d's (malformed JSON).
// It reads one token at a time and keeps none, so it takes no memory for
// what it reads.
func ReadDocumentJSON(d *jsontext.Decoder) error {
	_, err := countJSON(d, true)
	return err
}

// countJSON reads the next value from d and counts it; with stop, it stops
// at the first bound gone past.
func countJSON(d *jsontext.Decoder, stop bool) (jsonCounts, error) {
	var c jsonCounts
	base := d.StackDepth()
	objectValue := false // the value about to be read is that of an "object" member
	for {
		tok, err := d.ReadToken()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return c, err
		}
		depth := d.StackDepth()
		switch kind := tok.Kind(); kind {
		case '}', ']':
		case '"':
			s := tok.String()
			if k, n := d.StackIndex(depth); k == '{' && n%2 == 1 { // a member's name
				objectValue = s == "object"
				continue
			}
			c.values++
			c.text += decodedLen(s)
			if objectValue && elementObjects[s] {
				c.elements++
			}
		default: // '{' and '[' open a level; numbers, true, false and null
			c.values++
			c.depth = max(c.depth, depth-base)
		}
		objectValue = false
		if stop {
			if over := c.over(); over != "" {
				return c, quire.Errorf(quire.CodeInvalid, "%s", over)
			}
		}
		if depth == base {
			return c, nil
		}
	}
}

// decodedLen is the length of s as encoding/json decodes it: each byte of
// invalid UTF-8 becomes U+FFFD, three bytes.
func decodedLen(s string) int {
	if utf8.ValidString(s) {
		return len(s)
	}
	n := 0
	for _, r := range s {
		n += utf8.RuneLen(r)
	}
	return n
}
