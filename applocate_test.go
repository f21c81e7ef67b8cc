package quire_test

import (
	"net/url"
	"testing"

	"github.com/quiredocs/quire"
)

// TestLocateAppURL: which content an address of the app names, from the
// address alone; the host must be the app's, and the path one of its
// content routes.
func TestLocateAppURL(t *testing.T) {
	const host = "q.example"
	tests := []struct {
		url  string
		want quire.AppTarget
		ok   bool
	}{
		{"https://q.example/c/c1", quire.AppTarget{CollectionID: "c1"}, true},
		{"https://Q.EXAMPLE/s/s1", quire.AppTarget{SpaceID: "s1"}, true},
		{"https://q.example/s/s1/guide/intro", quire.AppTarget{SpaceID: "s1", Path: "guide/intro"}, true},
		{"https://q.example/s/s1/changes/cr1", quire.AppTarget{SpaceID: "s1", ChangeRequestID: "cr1"}, true},
		{"https://q.example/s/s1/changes/cr1/edit/a/b", quire.AppTarget{SpaceID: "s1", ChangeRequestID: "cr1", Path: "a/b"}, true},
		{"https://q.example/s/s1/revisions/r1", quire.AppTarget{SpaceID: "s1", RevisionID: "r1"}, true},
		{"https://q.example/s/s1/comments/k1", quire.AppTarget{SpaceID: "s1", CommentID: "k1"}, true},
		{"https://q.example/s/s%20x/p%C3%A9", quire.AppTarget{SpaceID: "s x", Path: "pé"}, true},
		{"https://other.example/s/s1", quire.AppTarget{}, false},
		{"https://q.example:8080/s/s1", quire.AppTarget{}, false},
		{"https://q.example/o/o1", quire.AppTarget{}, false},
		{"https://q.example/", quire.AppTarget{}, false},
		{"https://q.example", quire.AppTarget{}, false},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.url)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := quire.LocateAppURL(u, host)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LocateAppURL(%s) = %+v, %v; want %+v, %v", tt.url, got, ok, tt.want, tt.ok)
		}
	}
}
