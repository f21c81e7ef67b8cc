package sso

import (
	"strings"
	"testing"
	"time"
)

func TestStateSigned(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	now := time.Unix(1_700_000_000, 0)
	st := State{ProviderID: "p1", RequestID: "id-42", Expires: now.Add(RequestTTL)}
	value := signState(key, st)

	verify := func(key []byte, value, providerID string, now time.Time) (State, error) {
		payload, mac, ok := splitState(value)
		if !ok {
			return State{}, ErrNoState
		}
		return verifyState(key, payload, mac, providerID, now)
	}
	got, err := verify(key, value, "p1", now)
	if err != nil || got != st {
		t.Fatalf("verify = %+v, %v; want %+v", got, err, st)
	}
	app := State{ProviderID: "p1", RequestID: "id-43", Expires: now.Add(RequestTTL), App: true}
	if got, err := verify(key, signState(key, app), "p1", now); err != nil || got != app {
		t.Fatalf("verify app state = %+v, %v; want %+v", got, err, app)
	}
	for _, tc := range []struct {
		name       string
		key        []byte
		value      string
		providerID string
		now        time.Time
	}{
		{"other key", []byte("another key"), value, "p1", now},
		{"other provider", key, value, "p2", now},
		{"expired", key, value, "p1", st.Expires},
		{"not base64", key, "!!." + value, "p1", now},
		{"no mac", key, value[:strings.Index(value, ".")], "p1", now},
		{"payload changed", key, signState(key, State{ProviderID: "p1|x", RequestID: "id", Expires: st.Expires}), "p1", now},
		{"empty", key, "", "p1", now},
		{"unknown marker", key, signState(key, State{ProviderID: "p1", RequestID: "id|x", Expires: st.Expires}), "p1", now},
	} {
		if got, err := verify(tc.key, tc.value, tc.providerID, tc.now); err != ErrNoState {
			t.Errorf("%s: verify = %+v, %v; want ErrNoState", tc.name, got, err)
		}
	}
}
