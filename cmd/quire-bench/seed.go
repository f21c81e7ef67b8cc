package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
)

// batchSize is the most changes an authoring batch takes (edit.MaxChanges):
// each batch is a top-level section page and its subpages.
const batchSize = 50

// corpus is what a benchmark reads: a space of pages, and a page in its
// middle that has no subpages.
type corpus struct {
	orgID, spaceID, pageID string
	pageIDs                []string // every page, in order
}

// client calls the API with a token.
type client struct {
	base, token string
	http        *http.Client
}

// call sends method path with body (JSON, when not nil), checks the status
// and decodes the answer into out (when not nil).
func (c *client) call(ctx context.Context, method, path string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d: %.300s", method, path, resp.StatusCode, want, got)
	}
	if out != nil {
		return json.Unmarshal(got, out)
	}
	return nil
}

type idJSON struct {
	ID string `json:"id"`
}

// seed creates a space of n pages in the caller's first organization, in
// batches of 50 into one change request, merged at the end: one top-level
// page per batch with the batch's other pages below it.
func seed(ctx context.Context, c *client, n int) (*corpus, error) {
	var orgs struct{ Items []idJSON }
	if err := c.call(ctx, "GET", "/v1/orgs", nil, http.StatusOK, &orgs); err != nil {
		return nil, err
	}
	if len(orgs.Items) == 0 {
		return nil, fmt.Errorf("the token's user is in no organization")
	}
	co := &corpus{orgID: orgs.Items[0].ID}
	var sp, cr idJSON
	if err := c.call(ctx, "POST", "/v1/orgs/"+co.orgID+"/spaces", map[string]any{"title": fmt.Sprintf("Bench %d pages", n)}, http.StatusCreated, &sp); err != nil {
		return nil, err
	}
	co.spaceID = sp.ID
	crs := "/v1/spaces/" + sp.ID + "/change-requests"
	if err := c.call(ctx, "POST", crs, nil, http.StatusCreated, &cr); err != nil {
		return nil, err
	}
	middle := n / 2 // the page read: a subpage, unless there is none
	if middle%batchSize == 0 && middle+1 < n {
		middle++
	}
	for start := 0; start < n; start += batchSize {
		changes := make([]map[string]any, 0, batchSize)
		for i := start; i < min(n, start+batchSize); i++ {
			ch := map[string]any{"operation": "insert_page", "title": pageTitle(i), "document": map[string]any{"markdown": pageBody(i)}}
			if i == start {
				ch["ref"] = "section"
			} else {
				ch["into"] = "section"
			}
			changes = append(changes, ch)
		}
		var res struct {
			Changes []struct{ Page idJSON }
		}
		if err := c.call(ctx, "POST", crs+"/"+cr.ID+"/content?compat=false", map[string]any{"changes": changes}, http.StatusOK, &res); err != nil {
			return nil, err
		}
		for _, ch := range res.Changes {
			co.pageIDs = append(co.pageIDs, ch.Page.ID)
		}
		if middle >= start && middle < start+len(res.Changes) {
			co.pageID = res.Changes[middle-start].Page.ID
		}
	}
	if err := c.call(ctx, "POST", crs+"/"+cr.ID+"/merge", nil, http.StatusOK, nil); err != nil {
		return nil, err
	}
	return co, nil
}

// The corpus's words. Sentences mix everyday English (so "the" is in every
// page) with technical words drawn with a skew: the first ones are in most
// pages, "replication" in roughly one page in ten, the last ones in few.
var (
	topics = []string{"server", "database", "request", "configuration", "token", "cache", "index", "backup",
		"cluster", "network", "storage", "deployment", "session", "schema", "query", "migration", "webhook",
		"certificate", "proxy", "container", "scheduler", "replication", "snapshot", "latency", "throughput",
		"partition", "failover", "encryption", "rollback", "quota", "audit", "tenant", "bucket", "pipeline",
		"gateway", "manifest", "firewall", "checksum", "heartbeat", "sharding", "compaction", "tombstone",
		"idempotency", "backpressure", "quorum", "vacuum", "telemetry", "watermark", "lease", "consensus"}
	verbs    = []string{"stores", "reads", "checks", "sends", "keeps", "rotates", "updates", "removes", "validates", "copies", "limits", "answers"}
	adjs     = []string{"slow", "stale", "encrypted", "shared", "primary", "remote", "local", "expired", "pending", "healthy", "large", "empty"}
	headings = []string{"Overview", "Before you begin", "Configuration", "How it works", "Troubleshooting", "Limits", "Examples", "Next steps"}
	// syllables make each page's rare word, found in that page only.
	syllables = []string{"ka", "lo", "mi", "ru", "te", "vo", "zu", "na", "pe", "shi", "bo", "da", "fe", "gi", "ho", "ju", "ky", "me", "no", "qua"}
)

// rareWord is a made-up word that only page i holds, e.g. "kalomizex".
func rareWord(i int) string {
	return syllables[i/8000%20] + syllables[i/400%20] + syllables[i/20%20] + syllables[i%20] + "zex"
}

// words draws a page's words from its own seeded source.
type words struct {
	r *rand.Rand
	z *rand.Zipf
}

func newWords(seed, stream uint64) *words {
	r := rand.New(rand.NewPCG(seed, stream))
	return &words{r: r, z: rand.NewZipf(r, 2, 1, uint64(len(topics)-1))}
}

// topic draws a technical word with Zipf's law: the kth as often as the
// first over k squared.
func (w *words) topic() string { return topics[w.z.Uint64()] }

func (w *words) pick(l []string) string { return l[w.r.IntN(len(l))] }

func (w *words) sentence() string {
	topic, pick, r := w.topic, w.pick, w.r
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("The %s %s the %s when the %s is %s.", topic(), pick(verbs), topic(), topic(), pick(adjs))
	case 1:
		return fmt.Sprintf("Each %s %s a %s %s, so that the %s stays %s.", topic(), pick(verbs), pick(adjs), topic(), topic(), pick(adjs))
	case 2:
		return fmt.Sprintf("If a %s is %s, the %s %s it and the %s %s the %s.", topic(), pick(adjs), topic(), pick(verbs), topic(), pick(verbs), topic())
	default:
		return fmt.Sprintf("You can set the %s of a %s in the %s settings.", topic(), topic(), topic())
	}
}

func pageTitle(i int) string {
	w := newWords(uint64(i), 1)
	t := w.topic()
	return fmt.Sprintf("%s%s %s %d", strings.ToUpper(t[:1]), t[1:], w.pick(headings), i)
}

// pageBody is page i's markdown, about 1.5 KB: an introduction and three
// sections of two paragraphs, one with a code block, and a link.
func pageBody(i int) string {
	w := newWords(uint64(i), 2)
	var b strings.Builder
	para := func(n int) {
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(w.sentence())
		}
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "This page explains the %s of the %s, also known as %s. ", w.topic(), w.topic(), rareWord(i))
	para(3)
	for s, h := range w.r.Perm(len(headings))[:3] {
		fmt.Fprintf(&b, "## %s\n\n", headings[h])
		para(3)
		if s == 1 {
			fmt.Fprintf(&b, "```sh\nquire %s --%s=%d\n```\n\n", w.topic(), w.topic(), i)
		}
		para(2)
	}
	b.WriteString("See [the guide](https://example.com/guide) for more.\n")
	return b.String()
}
