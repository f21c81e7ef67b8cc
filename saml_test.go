package quire

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"strings"
	"testing"
	"time"
)

func testCertificatePEM(t testing.TB) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "idp"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func TestParseSAMLCertificates(t *testing.T) {
	cert := testCertificatePEM(t)
	for _, tc := range []struct {
		in   string
		want int // certificates; 0 for an error
	}{
		{cert, 1},
		{"\n  " + cert + "\n\n", 1},
		{cert + cert, 2},
		{"", 0},
		{"MIIB…", 0},
		{cert + "trailing", 0},
		{strings.Replace(cert, "CERTIFICATE", "PUBLIC KEY", 2), 0},
		{"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n", 0},
	} {
		certs, err := ParseSAMLCertificates("certificate", tc.in)
		if len(certs) != tc.want || (err == nil) != (tc.want > 0) {
			t.Errorf("%.40q: %d certificates, %v; want %d", tc.in, len(certs), err, tc.want)
		}
		if err != nil && (ErrorCode(err) != CodeInvalid || !strings.HasPrefix(err.Error(), "certificate: ")) {
			t.Errorf("%.40q: error %v, want an invalid certificate: …", tc.in, err)
		}
	}
}

func TestCheckAbsoluteURL(t *testing.T) {
	for in, ok := range map[string]bool{
		"https://idp.example.com/sso":            true,
		"http://localhost:8080/sso?x=1":          true,
		"/sso":                                   false,
		"idp.example.com/sso":                    false,
		"ftp://idp.example.com/":                 false,
		"javascript:alert(1)":                    false,
		"https://user:pw@idp.example.com/":       false,
		"https:///nohost":                        false,
		"https://idp.example.com/" + "%zz":       false,
		"https://x/" + strings.Repeat("a", 2040): false,
	} {
		if err := CheckAbsoluteURL("ssoURL", in, 2048); (err == nil) != ok {
			t.Errorf("%.40q: %v, want ok %v", in, err, ok)
		}
	}
}

func FuzzParseSAMLCertificates(f *testing.F) {
	cert := testCertificatePEM(f)
	f.Add(cert)
	f.Add(cert + cert)
	f.Add("-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----")
	f.Fuzz(func(t *testing.T, in string) {
		certs, err := ParseSAMLCertificates("certificate", in)
		if (err == nil) != (len(certs) > 0) {
			t.Fatalf("%d certificates with error %v", len(certs), err)
		}
		if err != nil && ErrorCode(err) != CodeInvalid {
			t.Fatalf("error %v is not invalid", err)
		}
	})
}
