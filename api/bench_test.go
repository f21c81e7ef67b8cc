package api_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store"
)

// newBenchEnv opens a SQLite store whatever QUIRE_TEST_POSTGRES says, so the
// figures compare from run to run, and seeds an organization with members
// users (the admin included) and teams teams, every member in the first.
// It returns the env and the id of a member other than the admin.
func newBenchEnv(b *testing.B, members, teams int) (*env, string) {
	b.Helper()
	ctx := b.Context()
	db, err := store.Open(ctx, "", b.TempDir())
	if err != nil {
		b.Fatalf("open store: %v", err)
	}
	b.Cleanup(func() { db.Close() })
	e := &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: blob.Dir{Path: b.TempDir()}})}
	boot, err := db.InitOrganization(ctx, "Bench Org", uniqueEmail("admin"), "Ada Admin")
	if err != nil {
		b.Fatalf("init organization: %v", err)
	}
	e.org = boot.Organization.ID
	e.admin = user{id: boot.User.ID, email: boot.User.Email, token: boot.Token}
	ids := []string{e.admin.id}
	err = db.Tx(ctx, func(tx *store.Tx) error {
		for i := 1; i < members; i++ {
			u, err := tx.EnsureUser(ctx, uniqueEmail("member"), fmt.Sprintf("Member %04d", i))
			if err != nil {
				return err
			}
			if err := tx.AddMember(ctx, e.org, u.ID, quire.RoleRead); err != nil {
				return err
			}
			ids = append(ids, u.ID)
		}
		return nil
	})
	if err != nil {
		b.Fatalf("seed members: %v", err)
	}
	for i := range teams {
		var in []string
		if i == 0 {
			in = ids
		}
		if _, err := db.CreateTeam(ctx, e.org, fmt.Sprintf("Team %d", i), in); err != nil {
			b.Fatalf("create team: %v", err)
		}
	}
	return e, ids[len(ids)/2]
}

// benchGet serves GET path as the env's admin in a b.Loop, after checking
// once that it answers 200. Responses are not checked against the reference
// inside the loop: that would measure the checker.
func benchGet(b *testing.B, e *env, path string) {
	b.Helper()
	newReq := func() *http.Request {
		req := httptest.NewRequestWithContext(context.Background(), http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+e.admin.token)
		return req
	}
	e.call(b, e.admin.token, http.MethodGet, path, nil).want(b, http.StatusOK)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		e.srv.ServeHTTP(rec, newReq())
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkGetMember reads one member of a 100-member organization with 10
// teams. Goal: at most 100 µs/op.
func BenchmarkGetMember(b *testing.B) {
	e, userID := newBenchEnv(b, 100, 10)
	benchGet(b, e, "/v1/orgs/"+e.org+"/members/"+userID)
}

// BenchmarkGetMemberParallel is BenchmarkGetMember from GOMAXPROCS
// goroutines at once: its req/s is the throughput of the whole machine.
func BenchmarkGetMemberParallel(b *testing.B) {
	e, userID := newBenchEnv(b, 100, 10)
	path := "/v1/orgs/" + e.org + "/members/" + userID
	e.call(b, e.admin.token, http.MethodGet, path, nil).want(b, http.StatusOK)
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequestWithContext(context.Background(), http.MethodGet, path, nil)
			req.Header.Set("Authorization", "Bearer "+e.admin.token)
			rec := httptest.NewRecorder()
			e.srv.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				b.Errorf("status %d: %s", rec.Code, rec.Body)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "req/s")
}

// BenchmarkListMembers1000 reads a 1,000-member page of a 2,000-member
// organization.
func BenchmarkListMembers1000(b *testing.B) {
	e, _ := newBenchEnv(b, 2000, 3)
	benchGet(b, e, "/v1/orgs/"+e.org+"/members?limit=1000")
}
