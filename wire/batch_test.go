package wire_test

import (
	"encoding/json"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/edit"
	"github.com/quiredocs/quire/wire"
)

// TestBatchResult: each change of a batch is shown with its page linked in
// the change request, a deleted page by its id alone; no change and no file
// are empty lists, not null.
func TestBatchResult(t *testing.T) {
	l := wire.Links{PublicURL: "https://q.example"}
	sp := &quire.Space{ID: "s1"}
	c := &quire.ChangeRequest{ID: "c1", RevisionID: "r1"}
	tests := []struct {
		name   string
		result edit.Result
		want   string // the changes and insertedFiles as JSON
	}{
		{"nothing", edit.Result{}, `{"changes":[],"insertedFiles":[]}`},
		{"inserted and deleted", edit.Result{Changes: []edit.Outcome{
			{Kind: "inserted_page", PageID: "p1", Ref: "a"},
			{Kind: edit.DeletedPage, PageID: "p2"},
		}}, `{"changes":[{"object":"inserted_page","ref":"a","page":{"object":"page","id":"p1",` +
			`"urls":{"location":"https://q.example/v1/spaces/s1/change-requests/c1/content/page/p1"}}},` +
			`{"object":"deleted_page","page":"p2"}],"insertedFiles":[]}`},
	}
	for _, tt := range tests {
		res := l.BatchResult(sp, c, &tt.result)
		b, err := json.Marshal(struct {
			Changes       []wire.BatchOutcome `json:"changes"`
			InsertedFiles []wire.File         `json:"insertedFiles"`
		}{res.Changes, res.InsertedFiles})
		if err != nil || string(b) != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.name, b, err, tt.want)
		}
	}
}
