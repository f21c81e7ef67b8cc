package api

import (
	"encoding/json"
	"errors"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/revision"
	"github.com/quiredocs/quire/wire"
)

// Wire shapes of revisions, pages and files (reference: Revision,
// RevisionPage*, RevisionFile).

// format says how page bodies are written: markdown by default, the JSON
// document form with format=document.
type format struct {
	document bool
	metadata bool // git metadata; metadata=false leaves it out
	// docBytes is what is left of MaxAnswerDocumentBytes for the documents
	// of this answer; formatParams sets it.
	docBytes *int
}

// MaxAnswerDocumentBytes bounds the JSON documents of one answer, which
// holds a page's subpages, or all pages of a revision. It is half the
// document cache, and half as much again as the largest document of a page
// within render's bounds (some 21 MB: 100,000 empty list items), so every
// page has its own document read.
const MaxAnswerDocumentBytes = 32 << 20

// pageTitle is a page's title as answers show it: the reference requires
// a non-empty one.
func pageTitle(p *content.Page) string { return revision.PageTitle(p) }

// pageJSON renders page id of v and, with deep, its subpages. It fails only
// when the document form is asked for and is too large.
func (s *Server) pageJSON(v *revision.View, id string, f format, deep bool) (wire.Page, error) {
	p := v.Tree.Pages[id]
	out := s.wire.Page(v.Space, p, v.Index(), pageTitle(p), v.DocumentID(id), f.metadata)
	if p.Kind != content.KindGroup {
		if f.document {
			doc, err := s.document(v, id, f)
			if err != nil {
				return out, err
			}
			out.Document = doc
		} else {
			md := p.Markdown
			out.Markdown = &md
		}
	}
	if deep {
		for _, c := range p.Children {
			sub, err := s.pageJSON(v, c, f, true)
			if err != nil {
				return out, err
			}
			out.Pages = append(out.Pages, sub)
		}
	}
	return out, nil
}

func (s *Server) pagesJSON(v *revision.View, f format) ([]wire.Page, error) {
	out := make([]wire.Page, 0, len(v.Tree.Root))
	for _, id := range v.Tree.Root {
		p, err := s.pageJSON(v, id, f, true)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// document is a page's JSON document form. A page past render's bounds,
// stored before they were checked, is answered 400; and so is an answer
// whose documents exceed MaxAnswerDocumentBytes.
func (s *Server) document(v *revision.View, id string, f format) (json.RawMessage, error) {
	doc, err := v.Document(id)
	if errors.Is(err, render.ErrDocumentTooLarge) {
		return nil, errorf(quire.CodeInvalid, "format: page %q is too large for the document form (more than %d elements); read it with format=markdown",
			id, render.MaxDocumentNodes)
	}
	if err != nil {
		return nil, err
	}
	if f.docBytes != nil {
		if *f.docBytes -= len(doc); *f.docBytes < 0 {
			return nil, errorf(quire.CodeInvalid, "format: the documents of these pages exceed %d MiB in all; read them with format=markdown, or a few pages at a time",
				MaxAnswerDocumentBytes>>20)
		}
	}
	return doc, nil
}
