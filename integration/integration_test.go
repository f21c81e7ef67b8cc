package integration

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSeal: sealed secrets open with the key and the integration's name,
// and with nothing else; each seal is new.
func TestSeal(t *testing.T) {
	t.Parallel()
	key := bytes.Repeat([]byte{7}, 32)
	p := &Publisher{SecretKey: key}
	secrets := map[string]string{"API_KEY": "s3cret"}
	sealed, err := p.seal(t.Context(), "name", secrets)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := p.seal(t.Context(), "name", secrets)
	if sealed[0] != sealedVersion || bytes.Equal(sealed, again) || bytes.Contains(sealed, []byte("s3cret")) {
		t.Fatalf("sealed %x, again %x", sealed, again)
	}
	block, _ := aes.NewCipher(key)
	gcm, _ := cipher.NewGCM(block)
	plain, err := gcm.Open(nil, sealed[1:13], sealed[13:], []byte("name"))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]string
	if err := json.Unmarshal(plain, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(secrets, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := gcm.Open(nil, sealed[1:13], sealed[13:], []byte("other")); err == nil {
		t.Error("sealed secrets open under another name")
	}
}
