package api

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/quiredocs/quire"
)

// A pending SAML sign-in lives in the browser that started it: a cookie
// holding the AuthnRequest's id, signed with a key the servers share. The
// start URL takes anyone, so keeping pending sign-ins in a shared table
// would let anyone fill it and lock everyone out; a cookie costs the server
// nothing, and a response is accepted only in the browser that asked for it.

// samlStateKeyName names the server secret that signs pending sign-ins.
const samlStateKeyName = "saml-state"

// samlStateCookie is the cookie holding a pending sign-in. Its path is the
// provider's sign-in folder, so sign-ins through different providers do not
// clash.
const samlStateCookie = "quire_saml"

// samlState is a pending sign-in read from a verified cookie.
type samlState struct {
	requestID string
	expires   time.Time
}

var errNoSAMLState = errorf(quire.CodeUnauthorized,
	"SAML response refused: it answers no sign-in started in this browser (or the sign-in expired); start again")

// setSAMLState keeps the pending sign-in requestID of provider p in the
// browser until expires.
func (s *Server) setSAMLState(w http.ResponseWriter, r *http.Request, p *quire.SAMLProvider, requestID string, expires time.Time) error {
	payload := p.ID + "|" + requestID + "|" + strconv.FormatInt(expires.Unix(), 10)
	mac, err := s.samlStateMAC(r, payload)
	if err != nil {
		return err
	}
	c := s.samlStateCookie(r, p)
	c.Value = base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(mac)
	c.MaxAge = int(time.Until(expires).Seconds())
	http.SetCookie(w, c)
	return nil
}

// clearSAMLState forgets the browser's pending sign-in through p.
func (s *Server) clearSAMLState(w http.ResponseWriter, r *http.Request, p *quire.SAMLProvider) {
	c := s.samlStateCookie(r, p)
	c.MaxAge = -1
	http.SetCookie(w, c)
}

// readSAMLState returns the browser's pending sign-in through p, if its
// cookie is there, signed by a server of this database, and not expired.
func (s *Server) readSAMLState(r *http.Request, p *quire.SAMLProvider) (samlState, error) {
	c, err := r.Cookie(samlStateCookie)
	if err != nil {
		return samlState{}, errNoSAMLState
	}
	enc, sig, _ := strings.Cut(c.Value, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(enc)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return samlState{}, errNoSAMLState
	}
	want, err := s.samlStateMAC(r, string(payload))
	if err != nil {
		return samlState{}, err
	}
	if !hmac.Equal(got, want) {
		return samlState{}, errNoSAMLState
	}
	parts := strings.Split(string(payload), "|")
	if len(parts) != 3 || parts[0] != p.ID {
		return samlState{}, errNoSAMLState
	}
	unix, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return samlState{}, errNoSAMLState
	}
	st := samlState{requestID: parts[1], expires: time.Unix(unix, 0)}
	if !st.expires.After(s.db.Now()) {
		return samlState{}, errNoSAMLState
	}
	return st, nil
}

// samlKeys holds the server secrets of SAML sign-ins once read: they never
// change once made, and the start URL, which takes anyone, should cost no
// database work.
type samlKeys struct {
	mu    sync.Mutex
	state []byte            // signs pending sign-ins
	key   *rsa.PrivateKey   // the service provider's
	cert  *x509.Certificate // the service provider's
}

// samlStateKey returns the key that signs pending sign-ins.
func (s *Server) samlStateKey(ctx context.Context) ([]byte, error) {
	s.saml.mu.Lock()
	defer s.saml.mu.Unlock()
	if s.saml.state == nil {
		key, err := s.db.ServerSecret(ctx, samlStateKeyName, func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return nil, err
		}
		s.saml.state = key
	}
	return s.saml.state, nil
}

func (s *Server) samlStateMAC(r *http.Request, payload string) ([]byte, error) {
	key, err := s.samlStateKey(r.Context())
	if err != nil {
		return nil, err
	}
	h := hmac.New(sha256.New, key)
	h.Write([]byte(payload))
	return h.Sum(nil), nil
}

// samlStateCookie is the cookie's attributes. The identity provider posts
// its answer from another site, so over HTTPS the cookie is SameSite=None
// (which browsers accept only when Secure); over plain HTTP (a local
// server) it names no SameSite, which browsers still send on a top-level
// POST made within two minutes of setting it.
func (s *Server) samlStateCookie(r *http.Request, p *quire.SAMLProvider) *http.Cookie {
	c := &http.Cookie{Name: samlStateCookie, Path: "/", HttpOnly: true}
	if u, err := url.Parse(s.samlService(p).ACSURL); err == nil {
		c.Path = path.Dir(u.Path)
		c.Secure = u.Scheme == "https"
	}
	if c.Secure || r.TLS != nil {
		c.Secure, c.SameSite = true, http.SameSiteNoneMode
	}
	return c
}
