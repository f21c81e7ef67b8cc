package sso

import (
	"context"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/crewjam/saml"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// DecodeResponse decodes the SAMLResponse an identity provider posts (HTTP
// POST binding): base64, which may be broken over lines.
func DecodeResponse(encoded string) ([]byte, error) {
	if encoded == "" {
		return nil, quire.Errorf(quire.CodeInvalid, "SAMLResponse: is required")
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(encoded), ""))
	if err != nil {
		return nil, quire.Errorf(quire.CodeInvalid, "SAMLResponse: must be base64")
	}
	return raw, nil
}

// SignIn checks the identity provider's response raw to the pending sign-in
// st through provider p (CheckResponse: the response and its assertion must
// claim st's request) and signs its subject in to p's organization, using
// that request up (store.DB.SignInWithSAML).
func (k *Keys) SignIn(ctx context.Context, sp *ServiceProvider, p *quire.SAMLProvider, raw []byte, st State) (*store.SAMLSession, error) {
	id, err := sp.CheckResponse(raw, st.RequestID)
	if err != nil {
		return nil, err
	}
	return k.db.SignInWithSAML(ctx, store.SAMLSignIn{
		OrgID: p.OrgID, ProviderID: p.ID, RequestID: st.RequestID, RequestExpires: st.Expires, AssertionID: id.AssertionID,
		Expires: id.Expires, Email: id.Email, DisplayName: id.Name, NoToken: st.App,
	})
}

// Identity is whom a checked response signs in, and until when its
// assertion must be remembered against replay.
type Identity struct {
	Email       string
	Name        string    // a display name, at most 100 characters
	AssertionID string    // unique per assertion of the identity provider
	Expires     time.Time // after which the assertion is refused anyway
}

// CheckResponse checks the identity provider's response raw (HTTP POST
// binding, decoded from base64): its signature, issuer, audience,
// destination, time bounds, and that it answers requestID, the request this
// browser started; unsolicited (IdP-initiated) responses are refused. Its
// errors are ErrNoState, a 401 that says why the response was refused, or a
// 400 when it gives no e-mail address.
func (sp *ServiceProvider) CheckResponse(raw []byte, requestID string) (Identity, error) {
	var head struct {
		InResponseTo string `xml:"InResponseTo,attr"`
	}
	if xml.Unmarshal(raw, &head) == nil && head.InResponseTo != requestID {
		return Identity{}, ErrNoState
	}
	assertion, err := parseResponse(sp.sp, raw, []string{requestID})
	if err != nil {
		return Identity{}, refusal(err)
	}
	email, name := identity(assertion)
	if quire.CheckEmail("email", email) != nil {
		return Identity{}, quire.Errorf(quire.CodeInvalid, "SAML response refused: it gives no e-mail address (send the NameID in the emailAddress format, or an email attribute)")
	}
	return Identity{Email: email, Name: name, AssertionID: assertion.ID, Expires: expiry(assertion)}, nil
}

// parseResponse checks a response with the library, which panics on some
// signed ones it should refuse (an assertion without Conditions, in
// v0.5.1): a panic there is a refusal, not a server error.
func parseResponse(sp *saml.ServiceProvider, raw []byte, expected []string) (a *saml.Assertion, err error) {
	defer func() {
		if p := recover(); p != nil {
			a, err = nil, fmt.Errorf("saml: response not understood: %v", p)
		}
	}()
	return sp.ParseXMLResponse(raw, expected, sp.AcsURL)
}

// refusal turns the library's refusal into a 401 that says why: the reason
// concerns only the response the client itself posted.
func refusal(err error) error {
	reason := "invalid response"
	if e, ok := errors.AsType[*saml.InvalidResponseError](err); ok && e.PrivateErr != nil {
		reason = e.PrivateErr.Error()
	}
	if len(reason) > 300 {
		reason = reason[:300] + "…"
	}
	return &quire.Error{Code: quire.CodeUnauthorized, Message: "SAML response refused: " + reason, Err: err}
}

// expiry is when the assertion is refused anyway, so that its id need not be
// remembered against replay: the library accepts it up to MaxIssueDelay
// after issue, and NotOnOrAfter bounds up to MaxClockSkew late.
func expiry(a *saml.Assertion) time.Time {
	t := a.IssueInstant.Add(saml.MaxIssueDelay)
	later := func(u time.Time) {
		if u = u.Add(saml.MaxClockSkew); u.After(t) {
			t = u
		}
	}
	if a.Conditions != nil {
		later(a.Conditions.NotOnOrAfter)
	}
	if a.Subject != nil {
		for _, c := range a.Subject.SubjectConfirmations {
			if c.SubjectConfirmationData != nil {
				later(c.SubjectConfirmationData.NotOnOrAfter)
			}
		}
	}
	return t.Add(saml.MaxClockSkew)
}

// Attribute names identity providers use, as names or friendly names:
// plain, Azure AD / ADFS claims, and LDAP OIDs.
var (
	emailAttributes = []string{"email", "mail", "emailaddress",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress", "urn:oid:0.9.2342.19200300.100.1.3"}
	nameAttributes = []string{"displayName", "name", "cn", "commonName", "fullName",
		"http://schemas.microsoft.com/identity/claims/displayname", "urn:oid:2.16.840.1.113730.3.1.241", "urn:oid:2.5.4.3"}
	givenNameAttributes = []string{"givenName", "firstName",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname", "urn:oid:2.5.4.42"}
	surnameAttributes = []string{"sn", "surname", "lastName",
		"http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname", "urn:oid:2.5.4.4"}
)

// identity reads the subject's e-mail address (an email attribute, else a
// NameID that is one) and display name (a name attribute, else given name
// and surname, else the address's local part).
func identity(a *saml.Assertion) (email, name string) {
	email = attribute(a, emailAttributes)
	if email == "" && a.Subject != nil && a.Subject.NameID != nil {
		switch a.Subject.NameID.Format {
		case "", string(saml.EmailAddressNameIDFormat), string(saml.UnspecifiedNameIDFormat):
			email = strings.TrimSpace(a.Subject.NameID.Value)
		}
	}
	name = attribute(a, nameAttributes)
	if name == "" {
		name = strings.TrimSpace(attribute(a, givenNameAttributes) + " " + attribute(a, surnameAttributes))
	}
	if name == "" {
		name, _, _ = strings.Cut(email, "@")
	}
	if utf8.RuneCountInString(name) > 100 {
		name = string([]rune(name)[:100])
	}
	return email, name
}

// attribute is the first non-blank value of an attribute of the assertion
// named (or friendly-named) one of names, in the order of the assertion.
func attribute(a *saml.Assertion, names []string) string {
	for _, st := range a.AttributeStatements {
		for _, at := range st.Attributes {
			for _, n := range names {
				if (strings.EqualFold(at.Name, n) || strings.EqualFold(at.FriendlyName, n)) && len(at.Values) > 0 {
					if v := strings.TrimSpace(at.Values[0].Value); v != "" {
						return v
					}
				}
			}
		}
	}
	return ""
}
