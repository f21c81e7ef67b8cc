package wire

import (
	"encoding/json"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/render"
	"github.com/quiredocs/quire/store"
)

// PageRef is how the API shows a page an authoring batch created or
// changed.
type PageRef struct {
	Object string `json:"object"`
	ID     string `json:"id"`
	URLs   URLs   `json:"urls"`
}

// BatchOutcome is how the API shows what one change of an authoring batch
// did.
type BatchOutcome struct {
	Object string `json:"object"`
	Ref    string `json:"ref,omitempty"`
	Page   any    `json:"page"`
}

// MetaLinks is the reference's RevisionPageMetaLinks: a page's canonical
// and alternate links. Quire's pages have none (neither the reference's
// authoring nor Quire's sets them), so both are left out, as the reference
// leaves out what a page does not have.
type MetaLinks struct {
	Canonical  *ContentRef  `json:"canonical,omitempty"`
	Alternates []ContentRef `json:"alternates,omitempty"`
}

// ContentRef is the reference's ContentRefPage or ContentRefURL.
type ContentRef struct {
	Kind string `json:"kind"`
	Page string `json:"page,omitempty"`
	URL  string `json:"url,omitempty"`
}

// Reference is how the API shows the target or a location of a link (the
// reference's ContentReference).
type Reference struct {
	Kind           string          `json:"kind"`
	Page           string          `json:"page,omitempty"`
	File           string          `json:"file,omitempty"`
	URL            string          `json:"url,omitempty"`
	Space          string          `json:"space,omitempty"`
	VersionContext *VersionContext `json:"versionContext,omitempty"`
}

// VersionContext is how the API shows the revision a reference was read at.
type VersionContext struct {
	Type     string `json:"type"`
	Revision string `json:"revision"`
}

// BatchResult is how the API shows the answer of an authoring batch: the
// change request and what each change did.
type BatchResult struct {
	ChangeRequest ChangeRequest  `json:"changeRequest"`
	Changes       []BatchOutcome `json:"changes"`
	InsertedFiles []File         `json:"insertedFiles"`
}

// GitBlob is how the API shows a page's Git blob: its object id and path.
type GitBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// Layout is the default page layout; the reference requires every field.
type Layout struct {
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

// defaultLayout is every page's layout: Quire has no other.
var defaultLayout = Layout{Width: "default", Cover: true, CoverSize: "hero", CoverMask: "none", Title: true,
	Description: true, TableOfContents: true, Outline: true, Pagination: true, Metadata: true, Tags: true, Actions: true, Anchors: true}

// PageURLs is how the API shows the addresses of a page in the app.
type PageURLs struct {
	App string `json:"app"`
}

// Page is how the API shows a page of a revision.
type Page struct {
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
	URLs          *PageURLs       `json:"urls,omitempty"`
	Slug          string          `json:"slug"`
	Path          string          `json:"path"`
	Description   string          `json:"description,omitempty"`
	Markdown      *string         `json:"markdown,omitempty"`
	Document      json.RawMessage `json:"document,omitempty"`
	DocumentID    string          `json:"documentId,omitempty"`
	Pages         []Page          `json:"pages"`
	Git           *GitBlob        `json:"git,omitempty"`
	Layout        *Layout         `json:"layout,omitempty"`
	Tags          []string        `json:"tags"`
	Hidden        bool            `json:"hidden"`
	NoIndex       bool            `json:"noIndex,omitempty"`
	NoRobotsIndex bool            `json:"noRobotsIndex,omitempty"`
}

// Dimensions is how the API shows an image's width and height.
type Dimensions struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// File is how the API shows a file of a revision.
type File struct {
	ID          string      `json:"id"`
	Name        string      `json:"name"`
	ContentType string      `json:"contentType"`
	DownloadURL string      `json:"downloadURL"`
	Size        int64       `json:"size"`
	Dimensions  *Dimensions `json:"dimensions,omitempty"`
}

// RevisionURLs is how the API shows the address of a revision in the app.
type RevisionURLs struct {
	App string `json:"app"`
}

// Revision is how the API shows a revision.
type Revision struct {
	Object           string         `json:"object"`
	ID               string         `json:"id"`
	Parents          []string       `json:"parents"`
	Pages            []Page         `json:"pages"`
	Files            []File         `json:"files"`
	ReusableContents []any          `json:"reusableContents"`
	Tags             []any          `json:"tags"`
	CreatedAt        string         `json:"createdAt"`
	Type             string         `json:"type"`
	MergedFrom       *ChangeRequest `json:"mergedFrom,omitempty"`
	URLs             RevisionURLs   `json:"urls"`
}

// RevisionFile shows a file of revision revID of space spaceID.
func (l Links) RevisionFile(spaceID, revID string, file *content.File) File {
	out := File{ID: file.ID, Name: file.Name, ContentType: file.ContentType, Size: file.Size}
	if l.FileURL != nil {
		out.DownloadURL = l.FileURL(spaceID, revID, file.ID)
	} else {
		out.DownloadURL = l.API("/spaces/" + spaceID + "/revisions/" + revID + "/files/" + file.ID + "/download")
	}
	if file.Width > 0 && file.Height > 0 {
		out.Dimensions = &Dimensions{file.Width, file.Height}
	}
	return out
}

// Page shows page p of space sp, at its place in x, without its body (the
// caller's to add: markdown, or the document form within its bounds) nor its
// subpages. title is the page's as answers show it; documentID is that of
// its document form, "" for none; with git, a document also has its Git
// blob's object id and path.
func (l Links) Page(sp *quire.Space, p *content.Page, x *content.Index, title, documentID string, git bool) Page {
	out := Page{
		ID: p.ID, Title: title, Emoji: p.Emoji, Icon: p.Icon, Condition: p.Condition,
		Slug: p.Slug, Path: x.Path[p.ID], Description: p.Description,
		Hidden: p.Hidden, NoIndex: p.NoIndex, NoRobotsIndex: p.NoRobotsIndex, Pages: []Page{}, Tags: []string{},
	}
	if p.CreatedAt != 0 {
		out.CreatedAt = Time(time.UnixMicro(p.CreatedAt).UTC())
		out.UpdatedAt = Time(time.UnixMicro(p.UpdatedAt).UTC())
	}
	if p.Kind == content.KindGroup {
		out.Kind, out.Type = "group", "group"
		return out
	}
	out.Kind, out.Type = "sheet", "document"
	out.URLs = &PageURLs{App: sp.PageAppURL(l.PublicURL, x.Path[p.ID], "")}
	out.Layout = &defaultLayout
	out.DocumentID = documentID
	if git {
		out.Git = &GitBlob{OID: content.GitBlobOID(render.PageMarkdown(p.Title, p.Description, p.Markdown)), Path: x.Git[p.ID]}
	}
	return out
}

// RevisionHead shows revision rev of space sp without its pages; files are
// the revision's, in the order answers list them, and mergedFrom the change
// request it merged, if any.
func (l Links) RevisionHead(sp *quire.Space, rev *store.Revision, files []*content.File, mergedFrom *ChangeRequest) Revision {
	out := make([]File, 0, len(files))
	for _, file := range files {
		out = append(out, l.RevisionFile(sp.ID, rev.ID, file))
	}
	parents := rev.Parents
	if parents == nil {
		parents = []string{}
	}
	return Revision{
		Object: "revision", ID: rev.ID, Parents: parents, Files: out,
		ReusableContents: []any{}, Tags: []any{}, CreatedAt: Time(rev.CreatedAt), Type: rev.Type,
		MergedFrom: mergedFrom,
		URLs:       RevisionURLs{App: quire.AppRevisionURL(l.PublicURL, sp.ID, rev.ID)},
	}
}
