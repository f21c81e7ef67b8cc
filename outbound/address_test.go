package outbound

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestPublic(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		// Global unicast.
		{"1.1.1.1", true},
		{"8.8.8.8", true},
		{"93.184.215.14", true},
		{"100.63.255.255", true},  // just below 100.64/10
		{"100.128.0.0", true},     // just above it
		{"172.15.255.255", true},  // just below 172.16/12
		{"172.32.0.0", true},      // just above it
		{"192.0.1.255", true},     // between 192.0.0/24 and 192.0.2/24
		{"192.0.3.0", true},       //
		{"192.88.98.255", true},   // below the 6to4 relays
		{"198.17.255.255", true},  // below 198.18/15
		{"198.20.0.0", true},      // above it
		{"223.255.255.255", true}, // last below multicast
		{"::ffff:8.8.8.8", true},  // mapped: checked as IPv4
		{"2606:4700:4700::1111", true},
		{"2001:4860:4860::8888", true},
		{"2001:200::1", true}, // just above 2001::/23
		{"2003::1", true},     // just above 6to4
		{"2a00:1450:4001::1", true},
		{"3ffe::1", true},         // below 3fff::/20
		{"3fff:1000::1", true},    // above it
		{"2001:db9::1", true},     // above 2001:db8::/32
		{"2620:4f:8001::1", true}, // beside the AS112 delegation

		// IPv4 special-purpose registry.
		{"0.0.0.0", false},
		{"0.255.255.255", false},
		{"10.0.0.1", false},
		{"100.64.0.0", false},
		{"100.100.100.200", false}, // Alibaba Cloud metadata
		{"100.127.255.255", false},
		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"169.254.169.254", false},
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"192.0.0.1", false},
		{"192.0.0.9", false},
		{"192.0.0.170", false},
		{"192.0.2.1", false},
		{"192.31.196.1", false},
		{"192.52.193.1", false},
		{"192.88.99.1", false},
		{"192.168.0.1", false},
		{"192.175.48.1", false},
		{"198.18.0.1", false},
		{"198.19.255.255", false},
		{"198.51.100.7", false},
		{"203.0.113.9", false},
		{"224.0.0.1", false},
		{"239.255.255.250", false},
		{"240.0.0.1", false},
		{"255.255.255.255", false},

		// IPv6 special-purpose registry and outside 2000::/3.
		{"::", false},
		{"::1", false},
		{"::127.0.0.1", false}, // IPv4-compatible, deprecated
		{"::8.8.8.8", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:100.64.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"::ffff:0.0.0.0", false},
		{"64:ff9b::7f00:1", false},  // NAT64 of 127.0.0.1
		{"64:ff9b::808:808", false}, // NAT64 of a public address: still refused
		{"64:ff9b:1::1", false},
		{"100::1", false},
		{"100:0:0:1::1", false},
		{"2001::1", false}, // Teredo
		{"2001:0:4136:e378::1", false},
		{"2001:2::1", false},        // benchmarking
		{"2001:10::1", false},       // ORCHID
		{"2001:1ff:ffff::1", false}, // end of 2001::/23
		{"2001:db8::1", false},
		{"2002:7f00:1::1", false}, // 6to4 of 127.0.0.1
		{"2002:808:808::1", false},
		{"2620:4f:8000::1", false},
		{"3fff::1", false},
		{"3fff:fff::1", false},
		{"5f00::1", false},
		{"fc00::1", false},
		{"fd00::2", false},
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"fec0::1", false}, // deprecated site-local
		{"ff02::1", false},
		{"ff0e::1", false},
		{"4000::1", false}, // unallocated
		{"1000::1", false},
	} {
		if got := public(netip.MustParseAddr(tc.addr)); got != tc.want {
			t.Errorf("public(%s) = %v, want %v", tc.addr, got, tc.want)
		}
	}
	if public(netip.Addr{}) {
		t.Error("the zero address is public")
	}
}

func TestCheckDial(t *testing.T) {
	defer setHostAddrs(func() ([]net.Addr, error) {
		return []net.Addr{
			&net.IPNet{IP: net.ParseIP("127.0.0.1"), Mask: net.CIDRMask(8, 32)},
			&net.IPNet{IP: net.ParseIP("8.8.4.4").To4(), Mask: net.CIDRMask(24, 32)},
			&net.IPNet{IP: net.ParseIP("2606:4700::6810:84e5"), Mask: net.CIDRMask(64, 128)},
		}, nil
	})()
	for _, tc := range []struct {
		address string
		ok      bool
	}{
		{"1.1.1.1:443", true},
		{"8.8.4.5:80", true}, // beside the host's address: only its own are refused
		{"[2606:4700:4700::1111]:443", true},
		{"8.8.4.4:80", false}, // the host's own public address
		{"[::ffff:8.8.4.4]:80", false},
		{"[2606:4700::6810:84e5]:443", false},
		{"10.0.0.1:80", false},
		{"[fe80::1%eth0]:80", false},
		{"not an address", false},
		{"example.com:80", false}, // the dialer gives addresses, never names
	} {
		err := checkDial(tc.address)
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrPrivateAddress)) {
			t.Errorf("checkDial(%s) = %v, want ok %v", tc.address, err, tc.ok)
		}
	}

	// A fetch to the host's own public address is refused before it dials.
	_, _, err := Fetcher{Timeout: 300 * time.Millisecond}.Get(context.Background(), "http://8.8.4.4:9/", 10)
	if !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("fetching the host's own address: %v, want ErrPrivateAddress", err)
	}
}

// TestHostAddrsCache: the host's addresses are read once per ttl; when they
// cannot be read, the last ones stand, and with none every dial fails.
func TestHostAddrsCache(t *testing.T) {
	reads, fail := 0, false
	c := &interfaceAddrs{ttl: time.Hour, read: func() ([]net.Addr, error) {
		reads++
		if fail {
			return nil, errors.New("netlink unavailable")
		}
		return []net.Addr{&net.IPAddr{IP: net.ParseIP("8.8.4.4")}}, nil
	}}
	for range 3 {
		if own, err := c.has(netip.MustParseAddr("8.8.4.4")); !own || err != nil {
			t.Fatalf("has(own) = %v, %v", own, err)
		}
	}
	if reads != 1 {
		t.Errorf("%d reads within the ttl, want 1", reads)
	}
	fail, c.ttl = true, 0
	if own, err := c.has(netip.MustParseAddr("8.8.4.4")); !own || err != nil {
		t.Errorf("after a failed read: has(own) = %v, %v; want the last addresses to stand", own, err)
	}
	empty := &interfaceAddrs{read: c.read}
	if _, err := empty.has(netip.MustParseAddr("1.1.1.1")); err == nil {
		t.Error("no addresses ever read, yet no error")
	}
}

// setHostAddrs replaces how the host's addresses are read and returns a
// function that restores it. Tests using it must not run in parallel.
func setHostAddrs(read func() ([]net.Addr, error)) (restore func()) {
	old := hostAddrs
	hostAddrs = &interfaceAddrs{read: read, ttl: old.ttl}
	return func() { hostAddrs = old }
}
