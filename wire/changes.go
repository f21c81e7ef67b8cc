package wire

import (
	"strconv"
)

// ChangedPage is how the API shows a page a change touched, as it was or
// is.
type ChangedPage struct {
	ID    string `json:"id"`
	Type  string `json:"type"`
	Title string `json:"title"`
	Path  string `json:"path,omitempty"`
}

// ChangedFile is how the API shows a file a change touched.
type ChangedFile struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	ContentType string `json:"contentType"`
	DownloadURL string `json:"downloadURL"`
}

// Change is how the API shows one change between two revisions.
type Change struct {
	Type       string         `json:"type"`
	Page       *ChangedPage   `json:"page,omitempty"`
	File       *ChangedFile   `json:"file,omitempty"`
	Attributes map[string]any `json:"attributes,omitempty"`
	Parent     *ChangedParent `json:"parent,omitempty"`
}

// ChangedParent is how the API shows where a moved page was and is.
type ChangedParent struct {
	Before *ChangedPage `json:"before,omitempty"`
	After  *ChangedPage `json:"after,omitempty"`
}

// Changes is how the API shows the changes between two revisions.
type Changes struct {
	MergedFrom *ChangeRequest `json:"mergedFrom,omitempty"`
	Changes    []Change       `json:"changes"`
	More       int            `json:"more,omitempty"`
}

// Attribute renders one changed attribute; empty sides are left out.
func Attribute(name string, ba [2]string) map[string]any {
	out := map[string]any{}
	for i, key := range []string{"before", "after"} {
		if ba[i] == "" {
			continue
		}
		if name == "size" {
			n, _ := strconv.ParseInt(ba[i], 10, 64)
			out[key] = n
		} else {
			out[key] = ba[i]
		}
	}
	return out
}
