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

type gitBlobJSON struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// layoutJSON is the default page layout; the reference requires every field.
type layoutJSON struct {
	Width           string `json:"width"`
	Cover           bool   `json:"cover"`
	CoverSize       string `json:"coverSize"`
	CoverMask       string `json:"coverMask"`
	Title           bool   `json:"title"`
	Description     bool   `json:"description"`
	TableOfContents bool   `json:"tableOfContents"`
	Outline         bool   `json:"outline"`
	Pagination      bool   `json:"pagination"`
	Metadata        bool   `json:"metadata"`
	Tags            bool   `json:"tags"`
	Actions         bool   `json:"actions"`
	Anchors         bool   `json:"anchors"`
}

var defaultLayout = layoutJSON{Width: "default", Cover: true, CoverSize: "hero", CoverMask: "none", Title: true,
	Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true, Tags: true, Actions: true, Anchors: true}

type pageURLsJSON struct {
	App string `json:"app"`
}

type pageJSON struct {
	Object        string          `json:"object,omitempty"`
	ID            string          `json:"id"`
	Title         string          `json:"title"`
	Emoji         string          `json:"emoji,omitempty"`
	Icon          string          `json:"icon,omitempty"`
	CreatedAt     string          `json:"createdAt,omitempty"`
	UpdatedAt     string          `json:"updatedAt,omitempty"`
	Condition     string          `json:"condition,omitempty"`
	Kind          string          `json:"kind"`
	Type          string          `json:"type"`
	URLs          *pageURLsJSON   `json:"urls,omitempty"`
	Slug          string          `json:"slug"`
	Path          string          `json:"path"`
	Description   string          `json:"description,omitempty"`
	Markdown      *string         `json:"markdown,omitempty"`
	Document      json.RawMessage `json:"document,omitempty"`
	DocumentID    string          `json:"documentId,omitempty"`
	Pages         []pageJSON      `json:"pages"`
	Git           *gitBlobJSON    `json:"git,omitempty"`
	Layout        *layoutJSON     `json:"layout,omitempty"`
	Tags          []string        `json:"tags"`
	Hidden        bool            `json:"hidden"`
	NoIndex       bool            `json:"noIndex,omitempty"`
	NoRobotsIndex bool            `json:"noRobotsIndex,omitempty"`
}

type dimensionsJSON struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

type fileJSON struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	ContentType string          `json:"contentType"`
	DownloadURL string          `json:"downloadURL"`
	Size        int64           `json:"size"`
	Dimensions  *dimensionsJSON `json:"dimensions,omitempty"`
}

type revisionURLsJSON struct {
	App string `json:"app"`
}

type revisionJSON struct {
	Object           string              `json:"object"`
	ID               string              `json:"id"`
	Parents          []string            `json:"parents"`
	Pages            []pageJSON          `json:"pages"`
	Files            []fileJSON          `json:"files"`
	ReusableContents []any               `json:"reusableContents"`
	Tags             []any               `json:"tags"`
	CreatedAt        string              `json:"createdAt"`
	Type             string              `json:"type"`
	MergedFrom       *wire.ChangeRequest `json:"mergedFrom,omitempty"`
	URLs             revisionURLsJSON    `json:"urls"`
}

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
func (s *Server) pageJSON(v *revision.View, id string, f format, deep bool) (pageJSON, error) {
	p := v.Tree.Pages[id]
	info := v.Index()
	out := pageJSON{
		ID: p.ID, Title: p.Title, Emoji: p.Emoji, Icon: p.Icon, Condition: p.Condition,
		Slug: p.Slug, Path: info.Path[id], Description: p.Description,
		Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, Pages: []pageJSON{}, Tags: []string{},
	}
	if p.CreatedAt != 0 {
		out.CreatedAt = wire.Time(fromMicros(p.CreatedAt))
		out.UpdatedAt = wire.Time(fromMicros(p.UpdatedAt))
	}
	out.Title = pageTitle(p)
	if p.Kind == content.KindGroup {
		out.Kind, out.Type = "group", "group"
	} else {
		out.Kind, out.Type = "sheet", "document"
		out.URLs = &pageURLsJSON{App: v.Space.PageAppURL(s.publicURL, info.Path[id], "")}
		out.Layout = &defaultLayout
		out.DocumentID = v.DocumentID(id)
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
		if f.metadata {
			out.Git = &gitBlobJSON{OID: content.GitBlobOID(render.PageMarkdown(p.Title, p.Description, p.Markdown)), Path: info.Git[id]}
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

func (s *Server) pagesJSON(v *revision.View, f format) ([]pageJSON, error) {
	out := make([]pageJSON, 0, len(v.Tree.Root))
	for _, id := range v.Tree.Root {
		p, err := s.pageJSON(v, id, f, true)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// revisionFileJSON shows a file of revision revID of space spaceID.
func (s *Server) revisionFileJSON(spaceID, revID string, file *content.File) fileJSON {
	out := fileJSON{ID: file.ID, Name: file.Name, ContentType: file.ContentType, Size: file.Size,
		DownloadURL: s.url("/spaces/" + spaceID + "/revisions/" + revID + "/files/" + file.ID + "/download")}
	if file.Width > 0 && file.Height > 0 {
		out.Dimensions = &dimensionsJSON{file.Width, file.Height}
	}
	return out
}

// revisionHeadJSON is a revision's answer without its pages.
func (s *Server) revisionHeadJSON(v *revision.View, mergedFrom *wire.ChangeRequest) revisionJSON {
	files := make([]fileJSON, 0, len(v.Tree.Files))
	for _, file := range v.Index().Files {
		files = append(files, s.revisionFileJSON(v.Space.ID, v.Revision.ID, file))
	}
	parents := v.Revision.Parents
	if parents == nil {
		parents = []string{}
	}
	return revisionJSON{
		Object: "revision", ID: v.Revision.ID, Parents: parents, Files: files,
		ReusableContents: []any{}, Tags: []any{}, CreatedAt: wire.Time(v.Revision.CreatedAt), Type: v.Revision.Type,
		MergedFrom: mergedFrom,
		URLs:       revisionURLsJSON{App: quire.AppRevisionURL(s.publicURL, v.Space.ID, v.Revision.ID)},
	}
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
