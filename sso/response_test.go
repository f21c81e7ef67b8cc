package sso

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/crewjam/saml"

	"github.com/quiredocs/quire"
)

func attrs(kv ...string) []saml.AttributeStatement {
	var st saml.AttributeStatement
	for i := 0; i < len(kv); i += 2 {
		st.Attributes = append(st.Attributes, saml.Attribute{Name: kv[i], Values: []saml.AttributeValue{{Value: kv[i+1]}}})
	}
	return []saml.AttributeStatement{st}
}

func nameID(format, v string) *saml.Subject {
	return &saml.Subject{NameID: &saml.NameID{Format: format, Value: v}}
}

func TestIdentity(t *testing.T) {
	long := strings.Repeat("é", 120)
	for _, tc := range []struct {
		name        string
		a           saml.Assertion
		email, disp string
	}{
		{"attributes", saml.Assertion{AttributeStatements: attrs("email", " ada@example.com ", "displayName", "Ada Lovelace")},
			"ada@example.com", "Ada Lovelace"},
		{"claims and friendly names", saml.Assertion{AttributeStatements: []saml.AttributeStatement{{Attributes: []saml.Attribute{
			{Name: "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/EmailAddress", Values: []saml.AttributeValue{{Value: "ada@example.com"}}},
			{Name: "urn:oid:2.5.4.42", FriendlyName: "givenName", Values: []saml.AttributeValue{{Value: "Ada"}}},
			{Name: "x", FriendlyName: "SN", Values: []saml.AttributeValue{{Value: "Lovelace"}}},
		}}}}, "ada@example.com", "Ada Lovelace"},
		{"email NameID", saml.Assertion{Subject: nameID(string(saml.EmailAddressNameIDFormat), "ada@example.com")},
			"ada@example.com", "ada"},
		{"unspecified NameID", saml.Assertion{Subject: nameID(string(saml.UnspecifiedNameIDFormat), "ada@example.com")},
			"ada@example.com", "ada"},
		{"persistent NameID", saml.Assertion{Subject: nameID(string(saml.PersistentNameIDFormat), "ada@example.com")},
			"", ""},
		{"attribute before NameID", saml.Assertion{Subject: nameID("", "nameid@example.com"), AttributeStatements: attrs("mail", "ada@example.com")},
			"ada@example.com", "ada"},
		{"blank value skipped", saml.Assertion{AttributeStatements: attrs("email", " ", "mail", "ada@example.com", "cn", "  ")},
			"ada@example.com", "ada"},
		{"long name", saml.Assertion{AttributeStatements: attrs("email", "ada@example.com", "name", long)},
			"ada@example.com", long[:200]},
	} {
		email, name := identity(&tc.a)
		if email != tc.email || name != tc.disp {
			t.Errorf("%s: identity = %q, %q; want %q, %q", tc.name, email, name, tc.email, tc.disp)
		}
	}
}

func TestExpiry(t *testing.T) {
	issued := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a := &saml.Assertion{IssueInstant: issued}
	if got, want := expiry(a), issued.Add(saml.MaxIssueDelay+saml.MaxClockSkew); !got.Equal(want) {
		t.Errorf("no bounds: expiry = %v, want %v", got, want)
	}
	late := issued.Add(time.Hour)
	a.Conditions = &saml.Conditions{NotOnOrAfter: issued.Add(time.Minute)}
	a.Subject = &saml.Subject{SubjectConfirmations: []saml.SubjectConfirmation{
		{}, {SubjectConfirmationData: &saml.SubjectConfirmationData{NotOnOrAfter: late}},
	}}
	if got, want := expiry(a), late.Add(2*saml.MaxClockSkew); !got.Equal(want) {
		t.Errorf("bounds: expiry = %v, want %v", got, want)
	}
}

func TestRefusal(t *testing.T) {
	err := refusal(&saml.InvalidResponseError{PrivateErr: errors.New(strings.Repeat("x", 301))})
	e, ok := errors.AsType[*quire.Error](err)
	if !ok || e.Code != quire.CodeUnauthorized || e.Message != "SAML response refused: "+strings.Repeat("x", 300)+"…" {
		t.Errorf("refusal = %#v", err)
	}
	if e, _ := errors.AsType[*quire.Error](refusal(errors.New("secret detail"))); e.Message != "SAML response refused: invalid response" {
		t.Errorf("refusal of another error says %q", e.Message)
	}
}

func TestKeyPair(t *testing.T) {
	b, err := newKeyPair(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	key, cert, err := parseKeyPair(b)
	if err != nil || key == nil || cert == nil || !key.PublicKey.Equal(cert.PublicKey) {
		t.Fatalf("parseKeyPair = %v, %v, %v", key, cert, err)
	}
	if _, _, err := parseKeyPair(b[:len(b)/3]); err == nil {
		t.Error("parseKeyPair of a truncated secret: no error")
	}
}

func TestDecodeResponse(t *testing.T) {
	t.Parallel()
	tests := []struct{ encoded, want, wantErr string }{
		{"PFJlc3BvbnNlLz4=", "<Response/>", ""},
		{"PFJlc3Bv\r\n  bnNlLz4=", "<Response/>", ""}, // broken over lines
		{"", "", "SAMLResponse: is required"},
		{"not base64!", "", "SAMLResponse: must be base64"},
	}
	for _, tt := range tests {
		raw, err := DecodeResponse(tt.encoded)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if string(raw) != tt.want || gotErr != tt.wantErr {
			t.Errorf("DecodeResponse(%q) = %q, %q; want %q, %q", tt.encoded, raw, gotErr, tt.want, tt.wantErr)
		}
	}
}
