package wire

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
