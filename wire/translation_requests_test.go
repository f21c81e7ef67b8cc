package wire_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire/wire"
)

func TestTranslationRequests(t *testing.T) {
	create := func() validator { return &wire.CreateTranslation{} }
	put := func() validator { return &wire.TranslationInstructions{} }
	runRequests(t, []requestCase{
		{"source required", `{}`, create, "source: is required"},
		{"source space required", `{"source":{"space":""}}`, create, "source.space: is required"},
		{"source space long", `{"source":{"space":"` + strings.Repeat("s", 257) + `"}}`, create, "source.space: must be at most 256 characters"},
		{"source language required", `{"source":{"space":"s"}}`, create, "source.language: is required"},
		{"language required", `{"source":{"space":"s","language":"en"}}`, create, "language: is required"},
		{"same language", `{"source":{"space":"s","language":"en"},"language":"en"}`, create, "language: must differ from source.language"},
		{"valid", `{"source":{"space":"s","language":"en"},"language":"fr"}`, create, ""},
		{"instructions", `{"instructions":{"object":"document","data":{},"nodes":[]}}`, put, ""},
	})
	var b wire.CreateTranslation
	runRequests(t, []requestCase{{"no instructions", `{"source":{"space":"s","language":"en"},"language":"de"}`, func() validator { return &b }, ""}})
	if got := string(b.CheckedInstructions()); got != `{"object":"document","data":{},"nodes":[]}` {
		t.Errorf("CheckedInstructions = %s, want the empty document", got)
	}
}
