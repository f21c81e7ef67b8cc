package outbound

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"syscall"
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

// TestRefusesAddressesThatAreNotPublic fetches URLs naming addresses of the
// special-purpose registries directly: each is refused before any packet
// leaves, rather than tried until the timeout.
func TestRefusesAddressesThatAreNotPublic(t *testing.T) {
	for _, host := range []string{
		"0.0.0.0", "0.1.2.3", "10.1.2.3", "100.64.0.1", "100.100.100.200", "127.0.0.2", "169.254.169.254",
		"172.20.0.1", "192.0.0.1", "192.0.0.170", "192.0.2.1", "192.31.196.1", "192.52.193.1", "192.88.99.1",
		"192.168.1.1", "192.175.48.1", "198.18.0.1", "198.19.255.254", "198.51.100.1", "203.0.113.1",
		"224.0.0.1", "240.0.0.1", "255.255.255.255",
		"[::1]", "[::]", "[::ffff:127.0.0.1]", "[::ffff:100.64.0.1]", "[64:ff9b::a9fe:a9fe]", "[64:ff9b:1::1]",
		"[100::1]", "[2001::1]", "[2001:db8::1]", "[2002:a9fe:a9fe::1]", "[fc00::1]", "[fd00::2]", "[fe80::1]",
		"[3fff::1]", "[5f00::1]",
	} {
		t.Run(host, func(t *testing.T) {
			_, _, err := Fetcher{Timeout: 300 * time.Millisecond}.Get(context.Background(), "http://"+host+":9/", 10)
			if !errors.Is(err, ErrPrivateAddress) {
				t.Errorf("fetching %s: %v, want ErrPrivateAddress", host, err)
			}
		})
	}
}

// TestErrorsTellNoNetworkDetail: what a caller shows of a failed fetch
// names neither the address dialed nor how the connection failed; the
// cause stays in the chain for logs.
func TestErrorsTellNoNetworkDetail(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	_, _, err = Fetcher{AllowPrivate: true}.Get(context.Background(), "http://localhost:"+port+"/spec.yaml", 10)
	if err == nil {
		t.Fatal("fetching a closed port succeeded")
	}
	for _, leak := range []string{"refused", "127.0.0.1", "::1", port, "dial", "tcp"} {
		if strings.Contains(err.Error(), leak) {
			t.Errorf("error %q tells %q", err, leak)
		}
	}
	if !strings.Contains(err.Error(), "could not be fetched") {
		t.Errorf("error %q, want it to say the URL could not be fetched", err)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Code != CodeError || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("error %#v: want a FETCH_ERROR whose cause is the refused connection", err)
	}
}

// TestPost: the answer comes back whatever its status, truncated; redirects
// are not followed; private addresses are refused unless allowed; time is
// bounded.
func TestPost(t *testing.T) {
	var got string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		case "/slow":
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
			}
		default:
			b := make([]byte, 10)
			n, _ := r.Body.Read(b)
			got = r.Header.Get("Content-Type") + " " + r.Header.Get("X-Test") + " " + string(b[:n])
			w.WriteHeader(http.StatusTeapot)
			w.Write([]byte(strings.Repeat("a", 100)))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	if _, err := (Fetcher{}).Post(ctx, srv.URL, nil, []byte("{}"), 10); !errors.Is(err, ErrPrivateAddress) {
		t.Fatalf("posting to loopback: %v, want ErrPrivateAddress", err)
	}
	f := Fetcher{AllowPrivate: true, Timeout: 200 * time.Millisecond}
	res, err := f.Post(ctx, srv.URL, http.Header{"X-Test": {"yes"}}, []byte(`{"a":1}`), 10)
	if err != nil || res.Status != http.StatusTeapot || string(res.Body) != strings.Repeat("a", 10) {
		t.Fatalf("post: %+v, %v", res, err)
	}
	if got != `application/json yes {"a":1}` {
		t.Errorf("receiver got %q", got)
	}
	if res, err := f.Post(ctx, srv.URL+"/redirect", nil, nil, 10); err != nil || res.Status != http.StatusFound {
		t.Errorf("redirect: %+v, %v", res, err)
	}
	var fe *Error
	if _, err := f.Post(ctx, srv.URL+"/slow", nil, nil, 10); !errors.As(err, &fe) || fe.Code != CodeTimeout {
		t.Errorf("slow: %v", err)
	}
}

// TestGetStart: a page longer than asked for is cut, not refused, and says
// so; its URL is the one read after redirects; private addresses are
// refused as by Get.
func TestGetStart(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/page", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(strings.Repeat("b", 100)))
	}))
	defer srv.Close()
	f := Fetcher{AllowPrivate: true}
	p, err := f.GetStart(context.Background(), srv.URL+"/moved", 40)
	if err != nil || len(p.Body) != 40 || !p.Truncated || p.URL.Path != "/page" || p.ContentType != "text/html; charset=utf-8" {
		t.Fatalf("cut page: %+v, %v", p, err)
	}
	if p, err := f.GetStart(context.Background(), srv.URL+"/page", 100); err != nil || len(p.Body) != 100 || p.Truncated {
		t.Errorf("whole page: %+v, %v", p, err)
	}
	if _, err := (Fetcher{}).GetStart(context.Background(), srv.URL, 10); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("private address: %v", err)
	}
}
