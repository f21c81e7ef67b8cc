package site_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession connects the Go SDK's client to the MCP server at endpoint.
func mcpSession(t *testing.T, endpoint string) (*mcp.ClientSession, error) {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "quire-test", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, MaxRetries: -1}, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

// callTool calls a tool, failing the test on a protocol error; it returns
// the tool's text and whether the tool answered an error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: %v", name, args, err)
	}
	var text []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text = append(text, tc.Text)
		}
	}
	return strings.Join(text, "\n"), res.IsError
}

func TestMCP(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "public")
	cs, err := mcpSession(t, d.url+"~mcp")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	if got := cs.InitializeResult().ServerInfo; got.Name != "Docs" || got.Version == "" {
		t.Errorf("server info %+v, want the site's title and a version", got)
	}
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Annotations == nil || !tool.Annotations.ReadOnlyHint {
			t.Errorf("tool %s: annotations %+v, want read-only", tool.Name, tool.Annotations)
		}
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"list_pages", "read_page", "search"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	// search answers absolute URLs of what the visitor sees.
	text, isErr := callTool(t, cs, "search", map[string]any{"query": "kubernetes"})
	var found struct{ Results []searchResult }
	if err := json.Unmarshal([]byte(text), &found); err != nil || isErr {
		t.Fatalf("search: %q (error %v): %v", text, isErr, err)
	}
	pageURL := d.url + d.reference + "/deploying"
	if len(found.Results) != 1 || found.Results[0].URL != pageURL+"#kubernetes" {
		t.Errorf("search kubernetes: %+v, want %s#kubernetes", found.Results, pageURL)
	}
	for _, q := range []string{"quokka", "wombat", "zanzibar"} {
		if text, _ := callTool(t, cs, "search", map[string]any{"query": q}); text != `{"results":[]}` {
			t.Errorf("search %s: %s, want no results", q, text)
		}
	}

	// read_page reads a page by the URL search gave, its path or its .md.
	for _, u := range []string{found.Results[0].URL, d.path + d.reference + "/deploying", d.reference + "/deploying.md"} {
		text, isErr := callTool(t, cs, "read_page", map[string]any{"url": u})
		if isErr || !strings.HasPrefix(text, "# Deploying\n\n") || !strings.Contains(text, "## Kubernetes") {
			t.Errorf("read_page %s: %q (error %v), want the page's markdown", u, text, isErr)
		}
	}
	// A hidden page is left out of search and lists, not hidden from its URL.
	if text, isErr := callTool(t, cs, "read_page", map[string]any{"url": "secret"}); isErr || !strings.Contains(text, "zanzibar") {
		t.Errorf("read_page secret: %q (error %v), want the hidden page", text, isErr)
	}
	for _, u := range []string{"beta", "beta/beta-details", "internal/plans", "nowhere", "https://elsewhere.example.com/" + d.path} {
		if text, isErr := callTool(t, cs, "read_page", map[string]any{"url": u}); !isErr || strings.Contains(text, "quokka") || strings.Contains(text, "wombat") {
			t.Errorf("read_page %s: %q, want an error", u, text)
		}
	}

	// list_pages lists what the sidebars show.
	text, _ = callTool(t, cs, "list_pages", nil)
	var listed struct{ Pages []struct{ Title, URL string } }
	if err := json.Unmarshal([]byte(text), &listed); err != nil {
		t.Fatalf("list_pages: %q: %v", text, err)
	}
	want := []struct{ Title, URL string }{
		{"Introduction", d.url + "introduction"}, {"Install", d.url + "install"}, {"Deploying", pageURL},
	}
	if diff := cmp.Diff(want, listed.Pages); diff != "" {
		t.Errorf("list_pages (-want +got):\n%s", diff)
	}
}

func TestMCPOfShareLinkSite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "share-link")
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	for _, endpoint := range []string{d.url + "~mcp", d.url + "~mcp?share=wrong"} {
		req, _ := http.NewRequestWithContext(t.Context(), "POST", endpoint, strings.NewReader(initialize))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s without the key: %d, want 404", endpoint, resp.StatusCode)
		}
		if _, err := mcpSession(t, endpoint); err == nil {
			t.Errorf("connect to %s without the key: no error", endpoint)
		}
	}
	cs, err := mcpSession(t, d.url+"~mcp?share="+e.shareKey(t, d.id))
	if err != nil {
		t.Fatalf("connect with the key: %v", err)
	}
	if text, isErr := callTool(t, cs, "read_page", map[string]any{"url": d.url + "install"}); isErr || !strings.Contains(text, "Run the installer.") {
		t.Errorf("read_page with the key: %q (error %v)", text, isErr)
	}
}

func TestMCPRefusesLargeBodies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "public")
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"query":"` + strings.Repeat("a", 100<<10) + `"}}}`
	req, _ := http.NewRequestWithContext(t.Context(), "POST", d.url+"~mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("100 KiB body: %d, want 413", resp.StatusCode)
	}
}

// An older client may send a JSON-RPC batch: its calls all answer.
func TestMCPBatch(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	d := newSiteDocs(t, e, "public")
	call := func(id int, name, args string) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
	}
	body := "[" + call(1, "search", `{"query":"installer"}`) + "," + call(2, "read_page", `{"url":"install"}`) + "," +
		call(3, "list_pages", `{}`) + "," + call(4, "read_page", `{"url":"beta"}`) + "]"
	req, _ := http.NewRequestWithContext(t.Context(), "POST", d.url+"~mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-03-26")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	type answer struct {
		ID     int
		Result struct{ IsError bool }
	}
	var answers []answer
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &answers); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("batch: %d %s: %v", resp.StatusCode, b, err)
	}
	slices.SortFunc(answers, func(a, b answer) int { return a.ID - b.ID })
	var got []bool
	for _, a := range answers {
		got = append(got, a.Result.IsError)
	}
	if diff := cmp.Diff([]bool{false, false, false, true}, got); diff != "" {
		t.Errorf("tool errors (-want +got):\n%s\n%s", diff, b)
	}
}
