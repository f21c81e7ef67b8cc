//go:build unix

package api_test

import (
	"fmt"
	"net/http"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/content"
	"github.com/quiredocs/quire/store"
)

// benchComments is how many comments the benchmark space holds.
const benchComments = 10_000

// newCommentBench creates a space of 20 pages with benchComments comments,
// one in two on a page, each with two replies (by two people) and reactions
// (👍 by three people, 🎉 by one); one in four is resolved.
func newCommentBench(b *testing.B) (e *env, spaceID string) {
	b.Helper()
	ctx := b.Context()
	e, _ = newBenchEnv(b, 1, 0)
	spaceID = e.crSpace(b)
	var c crOut
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests", nil).want(b, http.StatusCreated).Decode(b, &c)
	var pages []string
	_, err := e.db.EditChangeRequest(ctx, spaceID, c.ID, e.admin.id, func(now time.Time, t *content.Tree) (*content.Tree, error) {
		for i := range 20 {
			id := fmt.Sprintf("p%02d", i)
			t.Pages[id] = &content.Page{ID: id, Title: "Page " + id, Slug: id, Kind: content.KindDocument, Markdown: "Body.\n",
				CreatedAt: now.UnixMicro(), UpdatedAt: now.UnixMicro()}
			t.Root = append(t.Root, id)
			pages = append(pages, id)
		}
		return t, nil
	})
	if err != nil {
		b.Fatal(err)
	}
	e.call(b, e.admin.token, "POST", "/v1/spaces/"+spaceID+"/change-requests/"+c.ID+"/merge", nil).want(b, http.StatusOK)
	sp, err := e.db.Space(ctx, spaceID)
	if err != nil {
		b.Fatal(err)
	}
	people := []string{e.admin.id}
	for i := range 4 {
		people = append(people, e.addUser(b, "comment", fmt.Sprintf("Commenter %d", i)).id)
	}
	scope := store.CommentScope{SpaceID: spaceID}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	err = e.db.Tx(ctx, func(tx *store.Tx) error {
		for i := range benchComments {
			tx.Now = start.Add(time.Duration(i) * time.Minute)
			n := store.NewComment{CommentScope: scope, UserID: people[i%len(people)], RevisionID: sp.RevisionID,
				Markdown: fmt.Sprintf("Comment %d: could this paragraph say more about @[Ada](user:%s)'s setup?", i, e.admin.id)}
			if i%2 == 0 {
				n.PageID = pages[i%len(pages)]
			}
			id, err := tx.CreateComment(ctx, n)
			if err != nil {
				return err
			}
			for k := range 2 {
				if _, err := tx.CreateComment(ctx, store.NewComment{CommentScope: scope, ParentID: id,
					UserID: people[(i+k+1)%len(people)], Markdown: "Agreed, see the guide."}); err != nil {
					return err
				}
			}
			resolved := i%4 == 0
			cm := &quire.Comment{ID: id}
			for k := range 3 {
				u := store.CommentUpdate{AddReactions: []string{"👍"}}
				if k == 0 {
					u.AddReactions, u.Resolved = append(u.AddReactions, "🎉"), &resolved
				}
				if err := tx.UpdateComment(ctx, scope, cm, people[(i+k)%len(people)], u); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return e, spaceID
}

// BenchmarkListComments reads pages of 100 comments, with their replies
// counts, repliers and reactions, of a space with 10,000 comments: the
// newest, open ones, those on one page, a deep page, and the document form.
// Like the documents, the rows are cached after the first read: a server
// serves the same comments over and over. Issue 5: at least
// 2,000 pages of results per second: req/s of the parallel runs on an idle
// 2-core machine, or pages/s-by-cpu (what the CPU time per page allows on
// all cores) when other work shares it.
func BenchmarkListComments(b *testing.B) {
	e, spaceID := newCommentBench(b)
	base := "/v1/spaces/" + spaceID + "/comments?limit=100"
	var deep struct{ Next struct{ Page string } }
	e.call(b, e.admin.token, "GET", base+"&order=asc&limit=1000", nil).want(b, http.StatusOK).Decode(b, &deep)
	for _, q := range []struct{ name, path string }{
		{"newest", base},
		{"open", base + "&status=open"},
		{"page", base + "&targetPage=p04"},
		{"deep", base + "&order=asc&page=" + deep.Next.Page},
		{"document", base + "&format=document"},
	} {
		for _, parallel := range []bool{false, true} {
			name := q.name
			if parallel {
				name += "/parallel"
			}
			b.Run(name, func(b *testing.B) { benchCPU(b, func() { benchGetAs(b, e, e.admin.token, q.path, parallel) }) })
		}
	}
}

// benchCPU runs a benchmark and reports also the CPU time it took per
// operation (user and system time of the process, garbage collection
// included) and the operations per second that makes on all the cores:
// unlike req/s, which counts the wall time, it holds when other processes
// share the machine.
func benchCPU(b *testing.B, run func()) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	run()
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() - before.Utime.Nano() + after.Stime.Nano() - before.Stime.Nano())
	perOp := cpu.Seconds() / float64(b.N)
	b.ReportMetric(perOp*1e6, "cpu-µs/op")
	b.ReportMetric(float64(runtime.NumCPU())/perOp, "pages/s-by-cpu")
}
