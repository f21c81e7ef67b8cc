package api

import (
	"errors"
	"html/template"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/sso"
)

// The SAML 2.0 service provider's routes, over package sso: startURL sends
// the browser to the identity provider with an AuthnRequest (HTTP redirect
// binding); the identity provider posts its signed response to acsURL, which
// checks it (signature, issuer, audience, destination, time bounds, the
// request it answers, replay) and signs the user in; entityID is the URL of
// Quire's metadata. These routes take no token.

// flowProvider loads the provider in the path of a sign-in route, which has
// no caller: a missing organization or provider is 404 alike.
func (s *Server) flowProvider(r *http.Request, active bool) (*quire.SAMLProvider, *sso.ServiceProvider, error) {
	p, err := s.db.SAMLProvider(r.Context(), r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return nil, nil, err
	}
	if active && !p.Active() {
		return nil, nil, errorf(quire.CodeConflict, "SAML provider %q is pending: it needs an entityID, an ssoURL and a certificate", p.Label)
	}
	svc := s.wire.SAMLServiceOf(p)
	sp, err := s.saml.ServiceProvider(r.Context(), p, sso.URLs{EntityID: svc.EntityID, ACSURL: svc.ACSURL})
	return p, sp, err
}

// startSAML sends the browser to the identity provider with an AuthnRequest,
// whose id the browser keeps (saml_state.go) so that its answer is expected
// there.
func (s *Server) startSAML(w http.ResponseWriter, r *http.Request) error {
	p, sp, err := s.flowProvider(r, true)
	if err != nil {
		return err
	}
	req, err := sp.AuthnRequest()
	if err != nil {
		return err
	}
	st := sso.State{ProviderID: p.ID, RequestID: req.ID, Expires: s.db.Now().Add(sso.RequestTTL),
		App: query(r).Get("app") == "1" && s.startSession != nil}
	if err := s.setSAMLState(w, r, p, st); err != nil {
		return err
	}
	to, err := req.RedirectURL()
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusFound)
	return nil
}

// samlMetadata serves Quire's service provider metadata, at its entity id,
// for identity providers that read it.
func (s *Server) samlMetadata(w http.ResponseWriter, r *http.Request) error {
	_, sp, err := s.flowProvider(r, false)
	if err != nil {
		return err
	}
	b, err := sp.Metadata()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/samlmetadata+xml")
	_, err = w.Write(b)
	return err
}

// samlACS takes the identity provider's response (HTTP POST binding), checks
// it and signs its subject in: the answer is a page showing a new API token,
// or, for a sign-in started from the app (start?app=1), an app session and
// a redirect to the organization's page.
func (s *Server) samlACS(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	p, sp, err := s.flowProvider(r, true)
	if err != nil {
		return err
	}
	if err := r.ParseForm(); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return errorf(quire.CodeTooLarge, "body: must be at most %d bytes", MaxBodyBytes)
		}
		return errorf(quire.CodeInvalid, "body: must be a form (application/x-www-form-urlencoded)")
	}
	raw, err := sso.DecodeResponse(r.PostForm.Get("SAMLResponse"))
	if err != nil {
		return err
	}
	// The request it answers must be the one this browser started.
	st, err := s.readSAMLState(r, p)
	if err != nil {
		return err
	}
	st.App = st.App && s.startSession != nil // this server has no app: show a token
	sess, err := s.saml.SignIn(r.Context(), sp, p, raw, st)
	if err != nil {
		return err
	}
	org, err := s.db.Organization(r.Context(), p.OrgID)
	if err != nil {
		return err
	}
	s.clearSAMLState(w, r, p)
	if st.App {
		// Started from the app's sign-in page: the browser gets a session.
		if err := s.startSession(w, r, sess.Member.User.ID); err != nil {
			return err
		}
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, quire.AppOrgURL("", org.ID), http.StatusSeeOther)
		return nil
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Pragma", "no-cache")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	return signedInPage.Execute(w, map[string]any{
		"Org": org.Title, "Email": sess.Member.User.Email, "Joined": sess.Joined, "Token": sess.Token,
		"Header": "Authorization: Bearer " + sess.Token,
	})
}

// signedInPage shows the API token of a SAML sign-in, once: only its hash is
// kept. html/template escapes every value.
var signedInPage = template.Must(template.New("signed-in").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Signed in to {{.Org}}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:3em auto;padding:0 1em}pre{background:#f4f4f4;padding:1em;overflow-x:auto;user-select:all}</style></head>
<body>
<h1>Signed in to {{.Org}}</h1>
<p>You are signed in as {{.Email}}{{if .Joined}}, a new member of the organization{{end}}.</p>
<p>Your API token is below. It is shown only this once: copy it now and keep it secret.</p>
<pre id="token">{{.Token}}</pre>
<p>Send it with every API request:</p>
<pre>{{.Header}}</pre>
</body>
</html>
`))
