package contract

import (
	"strings"
	"testing"
)

func load(t *testing.T) *Reference {
	t.Helper()
	path := Find(".")
	if path == "" {
		t.Skip("reference OpenAPI document not found")
	}
	ref, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

func TestCheck(t *testing.T) {
	ref := load(t)
	user := `{"object":"user","id":"u1","displayName":"Ada","email":"a@example.com","urls":{"location":"http://x.test/v1/users/u1"}}`
	tests := []struct {
		name, method, path string
		status             int
		body               string
		wantErr            string // "" for valid
	}{
		{"valid user", "GET", "/user", 200, user, ""},
		{"missing required field", "GET", "/user", 200, `{"object":"user","id":"u1","urls":{"location":"http://x.test/"}}`, "displayName"},
		{"wrong object", "GET", "/user", 200, strings.Replace(user, `"user"`, `"team"`, 1), "does not match"},
		{"undocumented success status", "PUT", "/orgs/o1/teams", 200, `{}`, "not documented"},
		{"delete with body", "DELETE", "/orgs/o1/teams/t1", 204, `{"x":1}`, "documents no body"},
		{"delete without body", "DELETE", "/orgs/o1/teams/t1", 204, ``, ""},
		{"documented error", "GET", "/user", 404, `{"error":{"code":404,"message":"user not found"}}`, ""},
		{"error in wrong shape", "GET", "/orgs/o1/teams", 400, `{"message":"bad"}`, "error body"},
		{"error code differs", "GET", "/orgs/o1/teams", 403, `{"error":{"code":400,"message":"x"}}`, "error.code"},
		{"unknown operation", "GET", "/nowhere", 200, `nonsense`, ""},
		{"events", "GET", "/orgs/o1/ask/questions/stream", 200, "data: {\"question\":\"Why?\"}\n\n: comment\n\ndata: {\"question\":\"How?\"}\n\n", ""},
		{"event in wrong shape", "GET", "/orgs/o1/ask/questions/stream", 200, "data: {\"question\":\"Why?\"}\n\ndata: {\"q\":1}\n\n", "event 1 does not match"},
		{"event not JSON", "GET", "/orgs/o1/ask/questions/stream", 200, "data: why\n\n", "not JSON"},
		{"named event left alone", "GET", "/orgs/o1/ask/questions/stream", 200, "event: error\ndata: {\"error\":{}}\n\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ref.Check(tt.method, tt.path, tt.status, []byte(tt.body))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one mentioning %q", err, tt.wantErr)
			}
		})
	}
}
