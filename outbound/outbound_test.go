package outbound

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRefusesPrivateAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) }))
	defer srv.Close()
	_, _, err := Fetcher{}.Get(context.Background(), srv.URL, 100)
	if !errors.Is(err, ErrPrivateAddress) {
		t.Fatalf("fetching a loopback server: %v, want ErrPrivateAddress", err)
	}
	body, _, err := Fetcher{AllowPrivate: true}.Get(context.Background(), srv.URL, 100)
	if err != nil || string(body) != "secret" {
		t.Fatalf("allowed fetch: %q, %v", body, err)
	}
}

func TestRefusesRedirectToPrivateAddress(t *testing.T) {
	// A public-looking start cannot be tested without the internet; the dial
	// check is per connection, so a redirect to loopback is refused like a
	// direct request.
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("x")) }))
	defer inner.Close()
	outer := httptest.NewServer(http.RedirectHandler(inner.URL, http.StatusFound))
	defer outer.Close()
	if _, _, err := (Fetcher{}).Get(context.Background(), outer.URL, 10); !errors.Is(err, ErrPrivateAddress) {
		t.Fatalf("got %v", err)
	}
}

func TestLimitsSizeAndTime(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
			return
		}
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.Repeat("a", 100)))
	}))
	defer srv.Close()
	f := Fetcher{AllowPrivate: true, Timeout: 200 * time.Millisecond}
	var fe *Error
	if _, _, err := f.Get(context.Background(), srv.URL+"/big", 99); !errors.As(err, &fe) || fe.Code != CodeTooLarge {
		t.Errorf("big body: %v", err)
	}
	if _, _, err := f.Get(context.Background(), srv.URL+"/slow", 99); !errors.As(err, &fe) || fe.Code != CodeTimeout {
		t.Errorf("slow server: %v", err)
	}
	if _, _, err := f.Get(context.Background(), srv.URL+"/missing", 99); !errors.As(err, &fe) || fe.Code != CodeError {
		t.Errorf("404: %v", err)
	}
	if b, _, err := f.Get(context.Background(), srv.URL+"/ok", 100); err != nil || len(b) != 100 {
		t.Errorf("exact size: %d, %v", len(b), err)
	}
}
