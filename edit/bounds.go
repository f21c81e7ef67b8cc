package edit

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/render"
)

// checkDocuments refuses a batch body holding a JSON document,
// changes[i].document.document, past the bounds of a page
// (render.ReadDocumentJSON), naming the change. It reads the body in place,
// a token at a time, before anything decodes it, and stops at the first
// bound: decoding a document into maps and writing it as markdown before
// counting took gigabytes. What is malformed is left to Parse's decoding.
func checkDocuments(body []byte) error {
	d := render.NewDecoder(bytes.NewBuffer(body))
	for {
		tok, err := d.ReadToken()
		if err != nil {
			return nil // the end, or malformed
		}
		if k, n := d.StackIndex(d.StackDepth()); tok.Kind() != '"' || k != '{' || n%2 == 0 {
			continue // not a member's name
		}
		path := slices.Collect(d.StackPointer().Tokens())
		switch {
		case len(path) == 4 && inChange(path) && strings.EqualFold(path[2], "document") && strings.EqualFold(path[3], "document"):
			err := render.ReadDocumentJSON(d)
			if _, past := err.(*quire.Error); past {
				return invalid("changes[%s].document.document: %s", path[1], quire.ErrorMessage(err))
			}
		case len(path) == 1 && strings.EqualFold(path[0], "changes"),
			len(path) == 3 && inChange(path) && strings.EqualFold(path[2], "document"):
			// read on: a document may be within
		default:
			err = d.SkipValue()
		}
		if err != nil {
			return nil
		}
	}
}

// inChange reports whether path is in changes[i]. (encoding/json matches
// names without regard to case.)
func inChange(path []string) bool {
	_, err := strconv.Atoi(path[1])
	return strings.EqualFold(path[0], "changes") && err == nil
}
