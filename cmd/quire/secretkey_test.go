package main

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func TestSecretKeyConfig(t *testing.T) {
	key := bytes.Repeat([]byte{9}, 32)
	for _, tt := range []struct {
		env  string
		want []byte
		ok   bool
	}{
		{"", nil, true},
		{base64.StdEncoding.EncodeToString(key), key, true},
		{" " + base64.StdEncoding.EncodeToString(key) + "\n", key, true},
		{base64.StdEncoding.EncodeToString(key[:16]), nil, false},
		{"not base64!", nil, false},
	} {
		c := Config{SecretKey: tt.env}
		got, err := c.secretKey()
		if (err == nil) != tt.ok || !bytes.Equal(got, tt.want) {
			t.Errorf("secretKey(%q) = %x, %v", tt.env, got, err)
		}
	}
}

// TestServeBadSecretKey: a QUIRE_SECRET_KEY that is not 32 bytes of base64
// stops serve at start, before it touches the store (not a usage error).
func TestServeBadSecretKey(t *testing.T) {
	t.Setenv("QUIRE_SECRET_KEY", "c2hvcnQ=")
	_, _, err := runCLI(t, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--db", "mysql://never-opened")
	if err == nil || errors.Is(err, errUsage) || !strings.Contains(err.Error(), "QUIRE_SECRET_KEY") {
		t.Fatalf("err = %v, want an error about QUIRE_SECRET_KEY", err)
	}
}

func TestModelConfig(t *testing.T) {
	for _, tt := range []struct {
		url, key, name string
		ok, set        bool
	}{
		{"", "", "", true, false},
		{"https://api.example.com/v1/", "k", "m", true, true},
		{"http://127.0.0.1:11434/v1", "", "llama", true, true},
		{"https://api.example.com/v1", "k", "", false, false},
		{"ftp://api.example.com", "", "m", false, false},
		{"not a url", "", "m", false, false},
	} {
		c := Config{LLMURL: tt.url, LLMAPIKey: tt.key, LLMModel: tt.name}
		m, err := c.model()
		if (err == nil) != tt.ok || (m != nil) != tt.set {
			t.Errorf("model(%q, %q) = %+v, %v", tt.url, tt.name, m, err)
			continue
		}
		if m != nil && (strings.HasSuffix(m.URL, "/") || m.APIKey != tt.key || m.Name != tt.name) {
			t.Errorf("model(%q) = %+v", tt.url, m)
		}
	}
}
