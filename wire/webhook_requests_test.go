package wire_test

import (
	"strings"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

func TestWebhookGlossarySpecRequests(t *testing.T) {
	hook := func() validator { return &wire.CreateWebhook{} }
	update := func() validator { return &wire.UpdateWebhook{} }
	glossary := func() validator { return &wire.UpdateGlossaryEntries{} }
	spec := func() validator { return &wire.CreateOpenAPISpec{} }
	put := func() validator { return &wire.CreateOrUpdateOpenAPISpec{} }
	runRequests(t, []requestCase{
		{"hook url required", `{}`, hook, "url: is required"},
		{"hook events required", `{"url":"https://example.com/h"}`, hook, "events: is required"},
		{"hook space empty", `{"url":"https://example.com/h","events":["comment.posted"],"space":""}`, hook, "space: must be 1 to 64 characters"},
		{"update events null", `{"events":null}`, update, "events: must be a list of events"},
		{"update active null", `{"active":null}`, update, "active: must be a boolean"},
		{"update space null", `{"space":null}`, update, ""},
		{"glossary required", `{}`, glossary, "operations: is required"},
		{"glossary type required", `{"operations":[{}]}`, glossary, "operations[0].type: is required"},
		{"glossary type", `{"operations":[{"type":"upsert"}]}`, glossary, "operations[0].type: must be insert, update or delete"},
		{"glossary id", `{"operations":[{"type":"delete"}]}`, glossary, "operations[0].id: is required"},
		{"glossary translations", `{"operations":[{"type":"insert"}]}`, glossary, "operations[0].translations: is required"},
		{"glossary delete", `{"operations":[{"type":"delete","id":"g"}]}`, glossary, ""},
		{"spec slug required", `{"source":"openapi: 3.0.0"}`, spec, "slug: is required"},
		{"spec source required", `{"source":null}`, put, "source: is required"},
		{"spec source both", `{"source":{"url":"https://example.com/a","text":"x"}}`, put, "source: must have url or text, not both"},
		{"spec source neither", `{"source":{}}`, put, "source: must have url or text"},
		{"spec visibility required", `{}`, func() validator { return &wire.UpdateOpenAPISpec{} }, "visibility: is required"},
	})
	long := `{"url":"https://example.com/h","events":["comment.posted"],"description":"` + strings.Repeat("x", 257) + `"}`
	runRequests(t, []requestCase{{"hook description long", long, hook, "description: must be at most 256 characters"}})
}

func TestCreateWebhookValues(t *testing.T) {
	b := wire.CreateWebhook{PlainHTTP: true}
	if err := quire.DecodeJSON([]byte(`{"url":"http://example.com/h","events":["comment.posted"],"space":"s"}`), &b); err != nil {
		t.Fatal(err)
	}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	if n := b.NewWebhook("o", "u"); n.OrgID != "o" || n.CreatedBy != "u" || n.SpaceID != "s" || len(n.Events) != 1 {
		t.Errorf("NewWebhook = %+v", n)
	}
	b.PlainHTTP = false
	if err := b.Validate(); err == nil {
		t.Error("an http URL should be refused unless the operator allows it")
	}
}
