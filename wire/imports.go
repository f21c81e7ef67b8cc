package wire

import (
	"github.com/quiredocs/quire/store"
)

// ImportResult is how the API shows the answer of a synchronous import: the
// revision made and what it imported.
type ImportResult struct {
	Revision          string `json:"revision"`
	ImportedResources int    `json:"importedResources"`
	TotalResources    int    `json:"totalResources"`
}

// ImportRun is how the API shows a website import run.
type ImportRun struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Status      string          `json:"status"`
	Reason      string          `json:"reason,omitempty"`
	Source      ImportRunSource `json:"source"`
	Target      ImportRunTarget `json:"target"`
	Site        string          `json:"site,omitempty"`
	CreatedBy   string          `json:"createdBy,omitempty"`
	CreatedAt   string          `json:"createdAt"`
	UpdatedAt   string          `json:"updatedAt"`
	StartedAt   string          `json:"startedAt,omitempty"`
	CompletedAt string          `json:"completedAt,omitempty"`
	URLs        URLs            `json:"urls"`
	Pages       []ImportRunPage `json:"pages"`
}

// ImportRunSource is how the API shows where an import run reads from.
type ImportRunSource struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// ImportRunTarget is how the API shows where an import run writes to.
type ImportRunTarget struct {
	Space         string `json:"space"`
	ChangeRequest string `json:"changeRequest,omitempty"`
}

// ImportRunPage is how the API shows a page an import run has imported.
type ImportRunPage struct {
	ID        string `json:"id"`
	SourceURL string `json:"sourceURL"`
	Type      string `json:"type"`
	Status    string `json:"status"`
}

// ImportRun shows a website import run as the API answers it.
func (l Links) ImportRun(run *store.ImportRun) ImportRun {
	out := ImportRun{Object: "import-run", ID: run.ID, Status: run.Status, Reason: run.Reason,
		Source: ImportRunSource{Type: "website", URL: run.SourceURL},
		Target: ImportRunTarget{Space: run.SpaceID, ChangeRequest: run.ChangeRequestID},
		Site:   run.SiteID, CreatedBy: run.CreatedBy, CreatedAt: Time(run.CreatedAt), UpdatedAt: Time(run.UpdatedAt),
		URLs:  URLs{Location: l.API("/org/" + run.OrgID + "/imports/" + run.ID)},
		Pages: []ImportRunPage{}}
	if !run.StartedAt.IsZero() {
		out.StartedAt = Time(run.StartedAt)
	}
	if !run.CompletedAt.IsZero() {
		out.CompletedAt = Time(run.CompletedAt)
	}
	for _, p := range run.Pages {
		out.Pages = append(out.Pages, ImportRunPage{ID: p.ID, SourceURL: p.SourceURL, Type: "page", Status: "complete"})
	}
	return out
}
