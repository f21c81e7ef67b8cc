package sso

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"github.com/quiredocs/quire"
)

// A pending SAML sign-in lives in the browser that started it: a cookie
// holding the AuthnRequest's id, signed with a key the servers share. The
// start URL takes anyone, so keeping pending sign-ins in a shared table
// would let anyone fill it and lock everyone out; a cookie costs the server
// nothing, and a response is accepted only in the browser that asked for it.

// stateKeyName names the server secret that signs pending sign-ins.
const stateKeyName = "saml-state"

// State is a pending sign-in: the AuthnRequest a browser sent to an identity
// provider, and when it expires.
type State struct {
	ProviderID string
	RequestID  string
	Expires    time.Time
	// App says the sign-in was started from the web app, so it ends in an
	// app session rather than with an API token.
	App bool
}

// ErrNoState refuses a response that answers no pending sign-in of the
// browser that posts it.
var ErrNoState = quire.Errorf(quire.CodeUnauthorized,
	"SAML response refused: it answers no sign-in started in this browser (or the sign-in expired); start again")

// SignState returns st signed, for the browser to keep.
func (k *Keys) SignState(ctx context.Context, st State) (string, error) {
	key, err := k.stateKey(ctx)
	if err != nil {
		return "", err
	}
	return signState(key, st), nil
}

// VerifyState returns the pending sign-in through providerID that value
// holds, if a server of this database signed it and it has not expired;
// ErrNoState otherwise.
func (k *Keys) VerifyState(ctx context.Context, value, providerID string) (State, error) {
	payload, mac, ok := splitState(value)
	if !ok {
		return State{}, ErrNoState
	}
	key, err := k.stateKey(ctx)
	if err != nil {
		return State{}, err
	}
	return verifyState(key, payload, mac, providerID, k.db.Now())
}

// stateKey returns the key that signs pending sign-ins.
func (k *Keys) stateKey(ctx context.Context) ([]byte, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.state == nil {
		key, err := k.db.ServerSecret(ctx, stateKeyName, func() ([]byte, error) {
			b := make([]byte, 32)
			_, err := rand.Read(b)
			return b, err
		})
		if err != nil {
			return nil, err
		}
		k.state = key
	}
	return k.state, nil
}

// signState is st as "payload.mac", each in base64url, where the payload is
// "providerID|requestID|expires" (Unix seconds), then "|app" for a sign-in
// started from the app.
func signState(key []byte, st State) string {
	payload := st.ProviderID + "|" + st.RequestID + "|" + strconv.FormatInt(st.Expires.Unix(), 10)
	if st.App {
		payload += "|app"
	}
	return base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(stateMAC(key, payload))
}

// splitState decodes the payload and the MAC of a signed state.
func splitState(value string) (payload string, mac []byte, ok bool) {
	enc, sig, _ := strings.Cut(value, ".")
	p, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return "", nil, false
	}
	return string(p), mac, true
}

// verifyState reads payload, if mac signs it with key, it is of providerID,
// and it has not expired at now.
func verifyState(key []byte, payload string, mac []byte, providerID string, now time.Time) (State, error) {
	if !hmac.Equal(mac, stateMAC(key, payload)) {
		return State{}, ErrNoState
	}
	parts := strings.Split(payload, "|")
	if len(parts) < 3 || len(parts) > 4 || parts[0] != providerID || (len(parts) == 4 && parts[3] != "app") {
		return State{}, ErrNoState
	}
	unix, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return State{}, ErrNoState
	}
	st := State{ProviderID: parts[0], RequestID: parts[1], Expires: time.Unix(unix, 0), App: len(parts) == 4}
	if !st.Expires.After(now) {
		return State{}, ErrNoState
	}
	return st, nil
}

func stateMAC(key []byte, payload string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(payload))
	return h.Sum(nil)
}
