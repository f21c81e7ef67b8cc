package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// benchDepth is how deep collections nest in benchmark trees.
const benchDepth = 5

// benchTree is a benchmark organization whose spaces are spread over nested
// collections, with two callers who read them: a member (org role read) and
// a guest whose only access is a team grant on the outer collection.
type benchTree struct {
	*env
	member, guest user
	// deep[d] is a space inside the granted outer collection with d
	// ancestor collections, for d = 1 … benchDepth.
	deep [benchDepth + 1]string
}

// newBenchTree seeds spaces spaces over a tree of collections: two at the
// top, each with two children down to benchDepth (62 in all). The first
// benchDepth spaces go one per level down the first branch, so deep[d] is
// there whatever the number of spaces; the rest go round-robin over the top
// level and every collection. Each space is also granted to another member,
// so that grants grow with the spaces as they would in use.
func newBenchTree(b *testing.B, spaces int) *benchTree {
	b.Helper()
	ctx := b.Context()
	e, _ := newBenchEnv(b, 1, 0)
	tree := &benchTree{env: e, member: e.addUser(b, "read", "Mia Member"), guest: e.addUser(b, "guest", "Gus Guest")}
	editor := e.addUser(b, "read", "Ed Editor")
	parents := []string{""} // the top level, then every collection
	var branch []string     // the first collection at each depth
	level := []string{""}
	for d := 1; d <= benchDepth; d++ {
		var next []string
		for _, parent := range level {
			for i := range 2 {
				c, err := e.db.CreateCollection(ctx, e.org, fmt.Sprintf("Collection %d.%d", d, i), parent)
				if err != nil {
					b.Fatalf("create collection: %v", err)
				}
				next = append(next, c.ID)
			}
		}
		branch, parents, level = append(branch, next[0]), append(parents, next...), next
	}
	for i := range spaces {
		parent := parents[i%len(parents)]
		if i < benchDepth {
			parent = branch[i]
		}
		sp, err := e.db.CreateSpace(ctx, e.org, store.NewSpace{Title: fmt.Sprintf("Space %04d", i), ParentID: parent})
		if err != nil {
			b.Fatalf("create space: %v", err)
		}
		if i < benchDepth {
			tree.deep[i+1] = sp.ID
		}
		c := store.Content{Kind: "space", ID: sp.ID, OrgID: e.org, Level: sp.DefaultLevel, Ancestors: sp.Ancestors}
		if err := e.db.GrantRoles(ctx, c, []string{editor.id}, nil, quire.RoleEdit); err != nil {
			b.Fatalf("grant: %v", err)
		}
	}
	team, err := e.db.CreateTeam(ctx, e.org, "Guests", []string{tree.guest.id})
	if err != nil {
		b.Fatalf("create team: %v", err)
	}
	outer := store.Content{Kind: "collection", ID: branch[0], OrgID: e.org, Level: quire.LevelInherit}
	if err := e.db.GrantRoles(ctx, outer, nil, []string{team.ID}, quire.RoleRead); err != nil {
		b.Fatalf("grant: %v", err)
	}
	return tree
}

// benchCallers are the callers of benchTree sub-benchmarks.
var benchCallers = []string{"member", "guest"}

func (tree *benchTree) token(caller string) string {
	if caller == "guest" {
		return tree.guest.token
	}
	return tree.member.token
}

// benchGetAs serves GET path as the holder of token, after checking once
// that it answers 200: in a b.Loop, or with parallel from GOMAXPROCS
// goroutines at once, when its req/s is the throughput of the whole machine.
func benchGetAs(b *testing.B, e *env, token, path string, parallel bool) {
	b.Helper()
	newReq := func() *http.Request {
		req := httptest.NewRequestWithContext(context.Background(), http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		return req
	}
	e.call(b, token, http.MethodGet, path, nil).want(b, http.StatusOK)
	b.ReportAllocs()
	if parallel {
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			body := new(bytes.Buffer)
			for pb.Next() {
				rec := newBenchRecorder(body)
				e.srv.ServeHTTP(rec, newReq())
				if rec.Code != http.StatusOK {
					b.Errorf("status %d: %s", rec.Code, rec.Body)
					return
				}
			}
		})
	} else {
		body := new(bytes.Buffer)
		for b.Loop() {
			rec := newBenchRecorder(body)
			e.srv.ServeHTTP(rec, newReq())
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// newBenchRecorder records a response into body, emptied, so that a
// benchmark does not count growing a new buffer for every response, which
// a server writing to its connection does not do.
func newBenchRecorder(body *bytes.Buffer) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	body.Reset()
	rec.Body = body
	return rec
}

// benchGetSpace runs GET S over trees of 10 and 1,000 spaces, for a space
// one and benchDepth collections deep, as a member and as a guest.
func benchGetSpace(b *testing.B, parallel bool) {
	for _, spaces := range []int{10, 1000} {
		b.Run(fmt.Sprintf("spaces=%d", spaces), func(b *testing.B) {
			tree := newBenchTree(b, spaces)
			for _, depth := range []int{1, benchDepth} {
				for _, who := range benchCallers {
					b.Run(fmt.Sprintf("depth=%d/%s", depth, who), func(b *testing.B) {
						benchGetAs(b, tree.env, tree.token(who), "/v1/spaces/"+tree.deep[depth], parallel)
					})
				}
			}
		})
	}
}

// BenchmarkGetSpace reads one space. Issue 3: GET S at 20,000 req/s or
// more on the 2-core build machine (see BenchmarkGetSpaceParallel),
// whatever the number of spaces and the depth of collections.
func BenchmarkGetSpace(b *testing.B) { benchGetSpace(b, false) }

// BenchmarkGetSpaceParallel is BenchmarkGetSpace from GOMAXPROCS goroutines
// at once: its req/s is the one the goal is about.
func BenchmarkGetSpaceParallel(b *testing.B) { benchGetSpace(b, true) }

// BenchmarkListSpaces reads a 1,000-space page of an organization with 1,000
// spaces in nested collections: all of them for a member, the half under
// the granted collection for a guest.
func BenchmarkListSpaces(b *testing.B) {
	tree := newBenchTree(b, 1000)
	for _, who := range benchCallers {
		b.Run(who, func(b *testing.B) {
			benchGetAs(b, tree.env, tree.token(who), "/v1/orgs/"+tree.org+"/spaces?limit=1000", false)
		})
	}
}
