package site_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// Helpers of the core tests: more of a site through the API, requests with
// headers, and a small look into the HTML answered.

// sitePath is the API path of site id below the organization.
func (e *env) sitePath(id, rest string) string { return "/v1/orgs/" + e.org + "/sites/" + id + rest }

// change merges changes (content batch operations) into space spaceID.
func (e *env) change(t testing.TB, spaceID string, changes ...map[string]any) {
	t.Helper()
	var cr struct{ ID string }
	e.api(t, "POST", "/v1/spaces/"+spaceID+"/change-requests", map[string]any{"subject": "Change"}, http.StatusCreated, &cr)
	path := "/v1/spaces/" + spaceID + "/change-requests/" + cr.ID
	e.api(t, "POST", path+"/content", map[string]any{"changes": changes}, http.StatusOK, nil)
	e.api(t, "POST", path+"/merge", nil, http.StatusOK, nil)
}

// published is an API answer naming an item's id and published URL.
type published struct {
	ID   string
	Path string
	URLs struct{ Published string }
}

// answer is one HTTP answer of a published site.
type answer struct {
	status int
	header http.Header
	body   string
}

// fetch requests url with headers ("Host" sets the host), without
// following redirects or decompressing, through client (nil: a new one).
func fetch(t testing.TB, client *http.Client, method, url string, headers ...string) answer {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			req.Host = headers[i+1]
		} else {
			req.Header.Set(headers[i], headers[i+1])
		}
	}
	if client == nil {
		client = newClient(nil)
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	var rd io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatalf("%s %s: gzip: %v", method, url, err)
		}
		rd = zr
	}
	b, err := io.ReadAll(rd)
	if err != nil {
		t.Fatalf("%s %s: read: %v", method, url, err)
	}
	return answer{resp.StatusCode, resp.Header, string(b)}
}

// newClient is a client that neither follows redirects nor asks for
// gzip on its own; jar keeps cookies when not nil.
func newClient(jar http.CookieJar) *http.Client {
	return &http.Client{
		Jar:           jar,
		Transport:     &http.Transport{DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// jarClient is a client keeping cookies, following redirects.
func jarClient() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar}
}

// dom is a parsed HTML page.
type dom struct{ root *html.Node }

func parse(t testing.TB, body string) dom {
	t.Helper()
	n, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatalf("parse HTML: %v", err)
	}
	return dom{n}
}

// all lists the elements named tag (any when "") whose attributes hold
// every name=value pair of attrs; a "class" value matches one class, a
// value "*" any value.
func (d dom) all(tag string, attrs ...string) []*html.Node {
	var out []*html.Node
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (tag == "" || n.Data == tag) && hasAttrs(n, attrs) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(d.root)
	return out
}

// one is the first element all finds, or nil.
func (d dom) one(tag string, attrs ...string) *html.Node {
	if all := d.all(tag, attrs...); len(all) > 0 {
		return all[0]
	}
	return nil
}

// in is d narrowed to n.
func in(n *html.Node) dom { return dom{n} }

func hasAttrs(n *html.Node, attrs []string) bool {
	for i := 0; i+1 < len(attrs); i += 2 {
		v, ok := attr(n, attrs[i])
		switch {
		case !ok:
			return false
		case attrs[i+1] == "*":
		case attrs[i] == "class":
			if !contains(strings.Fields(v), attrs[i+1]) {
				return false
			}
		case v != attrs[i+1]:
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func attr(n *html.Node, name string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val, true
		}
	}
	return "", false
}

// text is the text inside n, spaces collapsed.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// texts are the texts of nodes.
func texts(nodes []*html.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, text(n))
	}
	return out
}

// attrOf is n's attribute name, "" when it has none.
func attrOf(n *html.Node, name string) string {
	v, _ := attr(n, name)
	return v
}
