// Package dnstest runs a real DNS server on 127.0.0.1 for tests, answering
// TXT and CNAME questions from records the test sets.
package dnstest

import (
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/miekg/dns"
)

// Server is an authoritative DNS server for whatever names a test sets.
type Server struct {
	Addr string // host:port, for dnscheck.New

	mu    sync.Mutex
	txt   map[string][]string
	cname map[string]string
}

// Start runs a server on UDP and TCP until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{txt: map[string][]string{}, cname: map[string]string{}}
	pc, l := listen(t)
	s.Addr = pc.LocalAddr().String()
	for _, srv := range []*dns.Server{{PacketConn: pc, Handler: s}, {Listener: l, Handler: s}} {
		started := make(chan struct{})
		srv.NotifyStartedFunc = func() { close(started) }
		go srv.ActivateAndServe()
		<-started
		t.Cleanup(func() { srv.Shutdown() })
	}
	return s
}

// listen takes a free UDP port and the same port on TCP, as a resolver
// expects; the TCP port may be a client's ephemeral port meanwhile, so
// another UDP port is tried then.
func listen(t testing.TB) (net.PacketConn, net.Listener) {
	t.Helper()
	var err error
	for range 100 {
		var pc net.PacketConn
		if pc, err = net.ListenPacket("udp", "127.0.0.1:0"); err != nil {
			break
		}
		var l net.Listener
		if l, err = net.Listen("tcp", pc.LocalAddr().String()); err == nil {
			return pc, l
		}
		pc.Close()
	}
	t.Fatal(err)
	return nil, nil
}

func fqdn(name string) string { return dns.Fqdn(strings.ToLower(name)) }

// SetTXT makes name answer with these TXT values; none removes them.
func (s *Server) SetTXT(name string, values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.txt[fqdn(name)] = values
}

// SetCNAME makes name a CNAME of target; "" removes it.
func (s *Server) SetCNAME(name, target string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if target == "" {
		delete(s.cname, fqdn(name))
	} else {
		s.cname[fqdn(name)] = fqdn(target)
	}
}

// ServeDNS answers from the records set: NXDOMAIN for a name with none.
func (s *Server) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	s.mu.Lock()
	for _, q := range req.Question {
		name := strings.ToLower(q.Name)
		hdr := func(t uint16) dns.RR_Header {
			return dns.RR_Header{Name: q.Name, Rrtype: t, Class: dns.ClassINET, Ttl: 1}
		}
		target, isCNAME := s.cname[name]
		txts, hasTXT := s.txt[name]
		switch {
		case isCNAME:
			m.Answer = append(m.Answer, &dns.CNAME{Hdr: hdr(dns.TypeCNAME), Target: target})
		case q.Qtype == dns.TypeTXT && len(txts) > 0:
			for _, v := range txts {
				m.Answer = append(m.Answer, &dns.TXT{Hdr: hdr(dns.TypeTXT), Txt: []string{v}})
			}
		case !hasTXT || len(txts) == 0:
			m.Rcode = dns.RcodeNameError
		}
	}
	s.mu.Unlock()
	w.WriteMsg(m)
}
