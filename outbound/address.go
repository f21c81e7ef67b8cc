package outbound

import (
	"fmt"
	"net"
	"net/netip"
	"sync"
	"time"
)

// notGlobal4 are the IPv4 blocks of the IANA IPv4 Special-Purpose Address
// Registry (RFC 6890 and updates), plus multicast and the reserved block,
// that a fetch never reaches. Some registry entries are marked globally
// reachable (AS112, AMT, 6to4 relays); a documentation fetcher has no
// business with them either, so every entry is here.
var notGlobal4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),          // "This network" (RFC 791); 0.0.0.0 dials the host itself
	netip.MustParsePrefix("10.0.0.0/8"),         // Private-Use (RFC 1918)
	netip.MustParsePrefix("100.64.0.0/10"),      // Shared Address Space, carrier-grade NAT (RFC 6598); some clouds' metadata
	netip.MustParsePrefix("127.0.0.0/8"),        // Loopback (RFC 1122)
	netip.MustParsePrefix("169.254.0.0/16"),     // Link Local (RFC 3927); cloud metadata at 169.254.169.254
	netip.MustParsePrefix("172.16.0.0/12"),      // Private-Use (RFC 1918)
	netip.MustParsePrefix("192.0.0.0/24"),       // IETF Protocol Assignments (RFC 6890): DS-Lite, NAT64 discovery, PCP and TURN anycast
	netip.MustParsePrefix("192.0.2.0/24"),       // Documentation, TEST-NET-1 (RFC 5737)
	netip.MustParsePrefix("192.31.196.0/24"),    // AS112-v4 (RFC 7535)
	netip.MustParsePrefix("192.52.193.0/24"),    // AMT (RFC 7450)
	netip.MustParsePrefix("192.88.99.0/24"),     // Deprecated 6to4 Relay Anycast (RFC 7526)
	netip.MustParsePrefix("192.168.0.0/16"),     // Private-Use (RFC 1918)
	netip.MustParsePrefix("192.175.48.0/24"),    // Direct Delegation AS112 Service (RFC 7534)
	netip.MustParsePrefix("198.18.0.0/15"),      // Benchmarking (RFC 2544)
	netip.MustParsePrefix("198.51.100.0/24"),    // Documentation, TEST-NET-2 (RFC 5737)
	netip.MustParsePrefix("203.0.113.0/24"),     // Documentation, TEST-NET-3 (RFC 5737)
	netip.MustParsePrefix("224.0.0.0/4"),        // Multicast (RFC 5771; IANA IPv4 Multicast Address Space Registry)
	netip.MustParsePrefix("240.0.0.0/4"),        // Reserved (RFC 1112)
	netip.MustParsePrefix("255.255.255.255/32"), // Limited Broadcast (RFC 919); inside 240/4, named for the registry
}

// globalUnicast6 is the one IPv6 block IANA's IPv6 Address Space registry
// allocates as Global Unicast (RFC 4291); everything outside it, such as
// ::/8 (unspecified, loopback, IPv4-compatible and IPv4-mapped), 100::/8,
// 5f00::/16, fc00::/7, fec0::/10 (deprecated site-local), fe80::/10 and
// ff00::/8, is never fetched. IPv4-mapped addresses are unmapped and checked
// as IPv4 before this.
var globalUnicast6 = netip.MustParsePrefix("2000::/3")

// notGlobal6 are the IPv6 blocks of the IANA IPv6 Special-Purpose Address
// Registry (RFC 6890 and updates), plus multicast, that a fetch never
// reaches. The ones outside 2000::/3 are refused by globalUnicast6 already;
// they are listed so the table reads as the registry does.
var notGlobal6 = []netip.Prefix{
	netip.MustParsePrefix("::/128"),            // Unspecified Address (RFC 4291)
	netip.MustParsePrefix("::1/128"),           // Loopback Address (RFC 4291)
	netip.MustParsePrefix("::ffff:0:0/96"),     // IPv4-mapped Address (RFC 4291); unmapped and checked as IPv4 first
	netip.MustParsePrefix("64:ff9b::/96"),      // IPv4-IPv6 Translation, the NAT64 well-known prefix (RFC 6052)
	netip.MustParsePrefix("64:ff9b:1::/48"),    // Local-Use IPv4/IPv6 Translation (RFC 8215)
	netip.MustParsePrefix("100::/64"),          // Discard-Only Address Block (RFC 6666)
	netip.MustParsePrefix("100:0:0:1::/64"),    // Dummy IPv6 Prefix (RFC 9780)
	netip.MustParsePrefix("2001::/23"),         // IETF Protocol Assignments (RFC 2928): PCP, benchmarking, AMT, AS112, ORCHID, Drone Remote ID
	netip.MustParsePrefix("2001::/32"),         // TEREDO (RFC 4380), embeds an IPv4 address; inside 2001::/23, named for the registry
	netip.MustParsePrefix("2001:db8::/32"),     // Documentation (RFC 3849)
	netip.MustParsePrefix("2002::/16"),         // 6to4 (RFC 3056), embeds an IPv4 address
	netip.MustParsePrefix("2620:4f:8000::/48"), // Direct Delegation AS112 Service (RFC 7534)
	netip.MustParsePrefix("3fff::/20"),         // Documentation (RFC 9637)
	netip.MustParsePrefix("5f00::/16"),         // Segment Routing (SRv6) SIDs (RFC 9602)
	netip.MustParsePrefix("fc00::/7"),          // Unique-Local (RFC 4193)
	netip.MustParsePrefix("fe80::/10"),         // Link-Local Unicast (RFC 4291)
	netip.MustParsePrefix("ff00::/8"),          // Multicast (RFC 4291)
}

// public reports whether a is a global unicast address: outside every block
// of the IANA special-purpose registries, and for IPv6 inside 2000::/3.
// It does not know the host's own addresses; checkDial does.
func public(a netip.Addr) bool {
	a = a.WithZone("").Unmap() // Prefix.Contains never matches a zoned or mapped address
	table := notGlobal4
	switch {
	case !a.IsValid():
		return false
	case a.Is6():
		if !globalUnicast6.Contains(a) {
			return false
		}
		table = notGlobal6
	}
	for _, p := range table {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// checkDial is the dialer's Control: it runs after DNS, for each address a
// connection is about to be made to, redirects included. It refuses
// addresses that are not public and the host's own.
func checkDial(address string) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrPrivateAddress, err)
	}
	a := ap.Addr().WithZone("").Unmap()
	if !public(a) {
		return ErrPrivateAddress
	}
	own, err := hostAddrs.has(a)
	if err != nil {
		return fmt.Errorf("%w: the host's own addresses are unknown: %v", ErrPrivateAddress, err)
	}
	if own {
		return ErrPrivateAddress
	}
	return nil
}

// hostAddrs are the addresses of the host's interfaces, such as a public
// address assigned to the machine, which reaches services listening on
// all interfaces.
var hostAddrs = &interfaceAddrs{read: net.InterfaceAddrs, ttl: 10 * time.Second}

// interfaceAddrs caches the host's addresses for ttl: interfaces change
// rarely, and reading them costs a netlink round trip.
type interfaceAddrs struct {
	read func() ([]net.Addr, error)
	ttl  time.Duration

	mu   sync.Mutex
	at   time.Time
	addr map[netip.Addr]bool // nil until read once
}

// has reports whether a is one of the host's addresses. When they cannot
// be read, the last ones read stand; if none ever were, it fails.
func (c *interfaceAddrs) has(a netip.Addr) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.addr == nil || time.Since(c.at) > c.ttl {
		addrs, err := c.read()
		if err != nil && c.addr == nil {
			return false, err
		}
		if err == nil {
			c.addr, c.at = map[netip.Addr]bool{}, time.Now()
			for _, n := range addrs {
				var ip net.IP
				switch v := n.(type) {
				case *net.IPNet:
					ip = v.IP
				case *net.IPAddr:
					ip = v.IP
				}
				if x, ok := netip.AddrFromSlice(ip); ok {
					c.addr[x.Unmap()] = true
				}
			}
		}
	}
	return c.addr[a.WithZone("").Unmap()], nil
}
