package api_test

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestFetchErrorsTellNoNetworkDetail: a URL whose server refuses the
// connection fails each fetching endpoint with a message that names neither
// the address dialed nor how the connection failed, only that the URL could
// not be fetched; the name "localhost" resolves to addresses the caller
// never gave.
func TestFetchErrorsTellNoNetworkDetail(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	refused := "http://localhost:" + port + "/doc"
	leaks := []string{"refused", "127.0.0.1", "::1", "dial", "tcp", "connect", port}
	check := func(what, answer string) {
		t.Helper()
		for _, leak := range leaks {
			if strings.Contains(answer, leak) {
				t.Errorf("%s tells %q: %s", what, leak, answer)
			}
		}
		if !strings.Contains(answer, "the URL could not be fetched") {
			t.Errorf("%s does not say the URL could not be fetched: %s", what, answer)
		}
	}

	_, crPath := e.newChangeRequest(t)
	res := e.author(t, e.admin.token, crPath, insertFiles(map[string]any{"name": "notes.txt", "url": refused}))
	res.wantError(t, http.StatusBadRequest, "changes[0].files[0].url", "FETCH_ERROR")
	check("authoring batch", string(res.Body))

	res = e.call(t, e.admin.token, "POST", crPath+"/content/import", map[string]any{"url": refused, "source": "website"})
	res.wantError(t, http.StatusBadRequest, "url")
	check("website import", string(res.Body))

	specsPut(t, e, "spec", map[string]any{"url": refused}, http.StatusCreated)
	specsProcess(t, e, 1)
	got := specsGet(t, e, "spec")
	if got.LastProcessErrorCode != "FETCH_ERROR" || len(got.LastProcessedErrors) != 1 {
		t.Fatalf("spec error code %q, errors %+v; want FETCH_ERROR and one error", got.LastProcessErrorCode, got.LastProcessedErrors)
	}
	check("API spec", got.LastProcessedErrors[0].Message)
}
