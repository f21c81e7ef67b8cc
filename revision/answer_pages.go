package revision

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// The API's answers of a revision's pages (GET …/content/page/{pageId}, by
// path, the page lists of …/content/pages and …/revisions/{revisionId}/pages,
// and the revision itself) depend only on the space's id (in each page's app
// URL), the tree (immutable, named by its root), the page and the format and
// metadata flags, and the server's public URL and app host; never on the
// caller, and on no state a commit changes in place. So each is encoded once
// per key and kept in Answers (page lists in Lists), gzipped on first demand:
// the page list is the API's largest answer, every page with its body,
// 2.7 MB for 1,000 pages. A page in markdown format is keyed by what its
// bytes are made of instead (pageKey), so that merges elsewhere in the space
// leave its answer in place. The caller must be authorized before asking,
// so kept bytes never reach someone who may not read them.

// Format says how page bodies are written: markdown by default, the JSON
// document form with Document.
type Format struct {
	Document bool
	Metadata bool // git metadata; false leaves it out
	// docBytes is what is left of MaxAnswerDocumentBytes for the documents
	// of one answer; NewFormat sets it.
	docBytes *int
}

// NewFormat is the format of one answer: its documents, when asked for,
// bounded by MaxAnswerDocumentBytes in all.
func NewFormat(document, metadata bool) Format {
	f := Format{Document: document, Metadata: metadata}
	if document {
		f.docBytes = new(int)
		*f.docBytes = MaxAnswerDocumentBytes
	}
	return f
}

// MaxAnswerDocumentBytes bounds the JSON documents of one answer, which
// holds a page's subpages, or all pages of a revision. It is half the
// document cache, and half as much again as the largest document of a page
// within render's bounds (some 21 MB: 100,000 empty list items), so every
// page has its own document read.
const MaxAnswerDocumentBytes = 32 << 20

// PageJSON shows page id of v and, with deep, its subpages. It fails only
// when the document form is asked for and is too large.
func (v *View) PageJSON(l wire.Links, id string, f Format, deep bool) (wire.Page, error) {
	p := v.Tree.Pages[id]
	out := l.Page(v.Space, p, v.Index(), PageTitle(p), v.DocumentID(id), f.Metadata)
	if p.Kind != content.KindGroup {
		if f.Document {
			doc, err := v.answerDocument(id, f)
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
			sub, err := v.PageJSON(l, c, f, true)
			if err != nil {
				return out, err
			}
			out.Pages = append(out.Pages, sub)
		}
	}
	return out, nil
}

// PagesJSON shows every page of v, top-level pages with their subpages.
func (v *View) PagesJSON(l wire.Links, f Format) ([]wire.Page, error) {
	out := make([]wire.Page, 0, len(v.Tree.Root))
	for _, id := range v.Tree.Root {
		p, err := v.PageJSON(l, id, f, true)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// answerDocument is a page's JSON document form. A page past render's
// bounds, stored before they were checked, is quire.CodeInvalid; and so is
// an answer whose documents exceed MaxAnswerDocumentBytes.
func (v *View) answerDocument(id string, f Format) (json.RawMessage, error) {
	doc, err := v.Document(id)
	if errors.Is(err, render.ErrDocumentTooLarge) {
		return nil, quire.Errorf(quire.CodeInvalid, "format: page %q is too large for the document form (more than %d elements); read it with format=markdown",
			id, render.MaxDocumentNodes)
	}
	if err != nil {
		return nil, err
	}
	if f.docBytes != nil {
		if *f.docBytes -= len(doc); *f.docBytes < 0 {
			return nil, quire.Errorf(quire.CodeInvalid, "format: the documents of these pages exceed %d MiB in all; read them with format=markdown, or a few pages at a time",
				MaxAnswerDocumentBytes>>20)
		}
	}
	return doc, nil
}

// AnswerKey names what the answers of v in format f are made of; what
// names the answer ("pages", or a page's id).
func (v *View) AnswerKey(f Format, what string) string {
	return v.Space.ID + "\x00" + v.Revision.Root + "\x00" + strconv.FormatBool(f.Document) + "\x00" + strconv.FormatBool(f.Metadata) + "\x00" + what
}

// EncodeJSON encodes x as the API writes it: JSON and a newline.
func EncodeJSON(x any) ([]byte, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Encoded wraps a build of an answer's bytes as a build of the answer.
func Encoded(build func() ([]byte, error)) func() (*Answer, error) {
	return func() (*Answer, error) {
		body, err := build()
		if err != nil {
			return nil, err
		}
		return NewAnswer(body), nil
	}
}

// PageAnswer is the answer of page id of v, in full, in format f, kept in
// Answers: what a page read answers.
func (r *Reader) PageAnswer(ctx context.Context, l wire.Links, v *View, id string, f Format) (*Answer, error) {
	key, build := r.pageAnswer(l, v, id, f)
	return r.answers.Get(ctx, key, build)
}

// pageAnswer is the key and the build of the answer of page id of v, in
// full, in format f: what a page read answers, and, without its final
// newline, what a page list holds of a top-level page.
func (r *Reader) pageAnswer(l wire.Links, v *View, id string, f Format) (string, func() (*Answer, error)) {
	key, ok := pageKey(v, f, id)
	if !ok {
		key = v.AnswerKey(f, id)
	}
	return key, Encoded(func() ([]byte, error) {
		page, err := v.PageJSON(l, id, f, true)
		if err != nil {
			return nil, err
		}
		return EncodeJSON(page)
	})
}

// PageList is the page list of v in format f, kept in Lists: what
// …/content/pages answers.
func (r *Reader) PageList(ctx context.Context, l wire.Links, v *View, f Format) (*Answer, error) {
	return r.lists.Get(ctx, v.AnswerKey(f, "pages"), func() (*Answer, error) {
		if !f.Document {
			if a, ok, err := r.pageListRuns(ctx, l, v, f); ok {
				return a, err
			}
		}
		pages, err := v.PagesJSON(l, f)
		if err != nil {
			return nil, err
		}
		body, err := EncodeJSON(map[string]any{"pages": pages})
		if err != nil {
			return nil, err
		}
		return NewAnswer(body), nil
	})
}

// MergedFrom shows the change request whose merge made v's revision; nil
// when a merge did not make it.
func (r *Reader) MergedFrom(ctx context.Context, l wire.Links, v *View) (*wire.ChangeRequest, error) {
	if v.Revision.Type != store.RevisionMerge {
		return nil, nil
	}
	c, err := r.db.ChangeRequest(ctx, v.Space.ID, v.Revision.MergedFrom)
	if err != nil {
		return nil, err
	}
	j := l.ChangeRequest(v.Space, c)
	return &j, nil
}

// RevisionAnswer is the answer of revision v in format f, in parts to be
// written end to end. The pages, the bulk of it, are the page list's,
// encoded once per revision (PageList); the rest is small and made each
// time.
func (r *Reader) RevisionAnswer(ctx context.Context, l wire.Links, v *View, f Format) ([][]byte, error) {
	mergedFrom, err := r.MergedFrom(ctx, l, v)
	if err != nil {
		return nil, err
	}
	list, err := r.PageList(ctx, l, v, f)
	if err != nil {
		return nil, err
	}
	rev := l.RevisionHead(v.Space, v.Revision, v.Index().Files, mergedFrom)
	rev.Pages = []wire.Page{}
	head, err := json.Marshal(rev)
	if err != nil {
		return nil, err
	}
	at := bytes.Index(head, []byte(emptyPages))
	pages, ok := trimParts(list.Body, []byte(`{"pages":`), []byte("}\n"))
	if at < 0 || !ok {
		return nil, fmt.Errorf("revision answer: no room for the pages") // unreachable: both are ours
	}
	parts := append([][]byte{head[:at], []byte(`"pages":`)}, pages...)
	return append(parts, head[at+len(emptyPages):], []byte("\n")), nil
}

// trimParts is parts without prefix at their start and suffix at their
// end, sharing their bytes; ok is false when they do not begin and end so.
func trimParts(parts [][]byte, prefix, suffix []byte) (_ [][]byte, ok bool) {
	if len(parts) == 0 || !bytes.HasPrefix(parts[0], prefix) {
		return nil, false
	}
	out := slices.Clone(parts)
	out[0] = out[0][len(prefix):]
	last := len(out) - 1
	if !bytes.HasSuffix(out[last], suffix) {
		return nil, false
	}
	out[last] = out[last][:len(out[last])-len(suffix)]
	return out, true
}

// emptyPages is where the pages go in a revision's answer.
const emptyPages = `"pages":[]`
