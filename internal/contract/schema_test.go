package contract

import (
	"strings"
	"testing"
)

func TestCheckSchema(t *testing.T) {
	ref := load(t)
	text := map[string]any{"object": "text", "leaves": []any{map[string]any{"object": "leaf", "text": "hi", "marks": []any{}}}}
	doc := func(block map[string]any) map[string]any {
		return map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{block}}
	}
	tests := []struct {
		name, schema string
		v            any
		wantErr      string // "" for valid
	}{
		{"paragraph", "JSONDocument", doc(map[string]any{"object": "block", "type": "paragraph", "nodes": []any{text}}), ""},
		{"struct values marshal", "DocumentMarkBold", struct {
			Object string `json:"object"`
			Type   string `json:"type"`
		}{"mark", "bold"}, ""},
		{"unknown block type", "JSONDocument", doc(map[string]any{"object": "block", "type": "heading-4", "data": map[string]any{}, "nodes": []any{text}}), "does not match"},
		{"missing nodes", "JSONDocument", map[string]any{"object": "document", "data": map[string]any{}}, "nodes"},
		{"unknown schema", "NoSuchSchema", map[string]any{}, "NoSuchSchema"},
		{"not JSON", "JSONDocument", func() {}, "json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ref.CheckSchema(tt.schema, tt.v)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}
