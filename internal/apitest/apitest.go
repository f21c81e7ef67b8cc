// Package apitest calls Quire's API from the tests of the packages in
// front of it (sites, the app), through a real server.
package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// Call sends method path (below baseURL) with token and body (as JSON,
// when not nil), fails the test unless the answer's status is want, and
// decodes the answer into out (when not nil).
func Call(t testing.TB, baseURL, token, method, path string, body any, want int, out any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatalf("%s %s: encode: %v", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, baseURL+path, rd)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, got)
	}
	if out != nil {
		if err := json.Unmarshal(got, out); err != nil {
			t.Fatalf("%s %s: decode %s: %v", method, path, got, err)
		}
	}
}
