package api

import (
	"net/http"
	"strings"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// A site's external links and MCP servers (the reference's
// SiteExternalLink and SiteMcpServer). Those who manage the site (role
// create) change them; MCP servers' headers may hold credentials, so only
// they read them too.

// maxExternalLinkURL bounds an external link's URL.
const maxExternalLinkURL = 2048

// externalLinkBody is the body of POST SITE/external-links and of PATCH
// SITE/external-links/{id}: null removes description, icon and condition,
// and parent null moves the link to the root.
type externalLinkBody struct {
	Title                quire.Optional[string] `json:"title"`
	LocalizedTitle       quire.Optional[any]    `json:"localizedTitle"`
	Description          quire.Optional[string] `json:"description"`
	LocalizedDescription quire.Optional[any]    `json:"localizedDescription"`
	Icon                 quire.Optional[string] `json:"icon"`
	URL                  quire.Optional[string] `json:"url"`
	Parent               quire.Optional[string] `json:"parent"`
	Draft                quire.Optional[bool]   `json:"draft"`
	Condition            quire.Optional[string] `json:"condition"`
}

func (b *externalLinkBody) Validate() error {
	for _, f := range []struct {
		field string
		o     quire.Optional[any]
	}{{"localizedTitle", b.LocalizedTitle}, {"localizedDescription", b.LocalizedDescription}} { // in order: one answer
		if f.o.Set && !f.o.Null {
			return errorf(quire.CodeInvalid, "%s: Quire has no localized titles; set title and description", f.field)
		}
	}
	return quire.FirstError(
		checkString("title", b.Title, 2, 128),
		checkRemovable(b.Description, func(v string) error { return quire.CheckLen("description", v, 0, 256) }),
		checkRemovable(b.Icon, checkIcon),
		checkString("url", b.URL, 1, maxExternalLinkURL),
		checkAbsolute("url", b.URL),
		checkRemovable(b.Parent, func(v string) error { return quire.CheckLen("parent", v, 1, 256) }),
		checkBool("draft", b.Draft),
		checkRemovable(b.Condition, checkCondition),
	)
}

func checkAbsolute(field string, o quire.Optional[string]) error {
	if !o.Set || o.Null {
		return nil
	}
	return quire.CheckAbsoluteURL(field, o.Value, maxExternalLinkURL)
}

func (s *Server) createSiteExternalLink(w http.ResponseWriter, r *http.Request) error {
	var body externalLinkBody
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	switch {
	case !body.Title.Set:
		return errorf(quire.CodeInvalid, "title: is required")
	case !body.URL.Set:
		return errorf(quire.CodeInvalid, "url: is required")
	case body.Parent.Null:
		return errorf(quire.CodeInvalid, "parent: must be a section group id; leave it out for the root")
	}
	l := quire.SiteExternalLink{SiteID: site.ID, Title: body.Title.Value, Description: body.Description.Value, Icon: body.Icon.Value,
		URL: body.URL.Value, GroupID: body.Parent.Value, Draft: body.Draft.Value, Condition: body.Condition.Value}
	created, err := s.db.CreateSiteExternalLink(r.Context(), l)
	if err != nil {
		return err
	}
	return writeCreated(w, s.url("/orgs/"+site.OrgID+"/sites/"+site.ID+"/external-links/"+created.ID), wire.SiteExternalLinkOf(created))
}

func (s *Server) updateSiteExternalLink(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	prefer := r.Header.Get("Prefer")
	if prefer != "" && prefer != "return=minimal" && prefer != "return=representation" {
		return errorf(quire.CodeInvalid, "Prefer: must be return=minimal or return=representation")
	}
	var body externalLinkBody
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	u := store.SiteExternalLinkUpdate{Title: setValue(body.Title), URL: setValue(body.URL), Draft: setValue(body.Draft),
		Description: removable(body.Description), Icon: removable(body.Icon), Condition: removable(body.Condition), GroupID: removable(body.Parent)}
	l, err := s.db.UpdateSiteExternalLink(r.Context(), site.ID, r.PathValue("siteExternalLinkId"), u)
	if err != nil {
		return err
	}
	if prefer == "return=minimal" {
		w.Header().Set("Preference-Applied", prefer)
		return noContent(w)
	}
	return writeJSON(w, http.StatusOK, wire.SiteExternalLinkOf(l))
}

// removable is a validated removable field for the store: nil when absent,
// "" when null.
func removable(o quire.Optional[string]) *string {
	if !o.Set {
		return nil
	}
	v := o.Value
	if o.Null {
		v = ""
	}
	return &v
}

// deleteSiteExternalLink: 205 when the link was deleted, 204 when there was
// none, as the reference says.
func (s *Server) deleteSiteExternalLink(w http.ResponseWriter, r *http.Request) error {
	return s.removeSiteItem(w, r, "siteExternalLinkId", s.db.DeleteSiteExternalLink)
}

// deleted answers a DELETE the reference answers 205 when it deleted and
// 204 when there was nothing to delete.
func deleted(w http.ResponseWriter, existed bool) error {
	if existed {
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
	return noContent(w)
}

// mcpServerBody is the body of POST SITE/mcp-servers and PATCH
// SITE/mcp-servers/{id}: condition null removes it; headers replace all.
type mcpServerBody struct {
	Name      quire.Optional[string]            `json:"name"`
	URL       quire.Optional[string]            `json:"url"`
	Transport quire.Optional[string]            `json:"transport"`
	Headers   quire.Optional[map[string]string] `json:"headers"`
	Condition quire.Optional[string]            `json:"condition"`
}

func (b *mcpServerBody) Validate() error {
	if err := quire.FirstError(
		checkString("name", b.Name, 1, 100),
		checkString("url", b.URL, 1, quire.MaxMCPServerURL),
		checkAbsolute("url", b.URL),
		checkRemovable(b.Condition, checkCondition),
	); err != nil {
		return err
	}
	if b.Transport.Set {
		if err := quire.CheckMCPTransport("transport", b.Transport.Value); err != nil {
			return err
		}
	}
	if b.Headers.Set {
		if b.Headers.Null {
			return errorf(quire.CodeInvalid, "headers: must be an object")
		}
		return quire.CheckMCPHeaders("headers", b.Headers.Value)
	}
	return nil
}

func (s *Server) listSiteMCPServers(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	list, err := s.db.ListSiteMCPServers(r.Context(), site.ID, p)
	if err != nil {
		return err
	}
	return writeList(w, list, func(m *quire.SiteMCPServer) wire.SiteMCPServer { return s.wire.SiteMCPServer(site, m) })
}

func (s *Server) createSiteMCPServer(w http.ResponseWriter, r *http.Request) error {
	var body mcpServerBody
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	if err := quire.FirstError(quire.CheckRequired("name", body.Name.Set), quire.CheckRequired("url", body.URL.Set),
		quire.CheckRequired("headers", body.Headers.Set)); err != nil {
		return err
	}
	m := quire.SiteMCPServer{SiteID: site.ID, Name: body.Name.Value, URL: body.URL.Value, Transport: "sse",
		Headers: body.Headers.Value, Condition: body.Condition.Value}
	if body.Transport.Set {
		m.Transport = body.Transport.Value
	}
	created, err := s.db.CreateSiteMCPServer(r.Context(), m)
	if err != nil {
		return err
	}
	out := s.wire.SiteMCPServer(site, created)
	return writeCreated(w, out.URLs.Location, out)
}

func (s *Server) getSiteMCPServer(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleCreate)
	if err != nil {
		return err
	}
	m, err := s.db.SiteMCPServer(r.Context(), site.ID, r.PathValue("siteMcpServerId"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.SiteMCPServer(site, m))
}

func (s *Server) updateSiteMCPServer(w http.ResponseWriter, r *http.Request) error {
	var body mcpServerBody
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	u := store.SiteMCPServerUpdate{Name: setValue(body.Name), URL: setValue(body.URL), Transport: setValue(body.Transport),
		Condition: removable(body.Condition)}
	if body.Headers.Set {
		u.Headers = body.Headers.Value
		if u.Headers == nil {
			u.Headers = map[string]string{}
		}
	}
	m, err := s.db.UpdateSiteMCPServer(r.Context(), site.ID, r.PathValue("siteMcpServerId"), u)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.SiteMCPServer(site, m))
}

// deleteSiteMCPServer: 205 when the server was deleted, 204 when there was
// none, as the reference says.
func (s *Server) deleteSiteMCPServer(w http.ResponseWriter, r *http.Request) error {
	return s.removeSiteItem(w, r, "siteMcpServerId", s.db.DeleteSiteMCPServer)
}

// listSiteIntegrations answers GET SITE/integrations: the integrations
// enabled on the site (store.SiteIntegrations), those whose name or title
// holds search when it is given.
func (s *Server) listSiteIntegrations(w http.ResponseWriter, r *http.Request) error {
	site, _, err := s.site(r, quire.RoleRead)
	if err != nil {
		return err
	}
	search := query(r).Get("search")
	if err := quire.CheckLen("search", search, 0, 256); err != nil {
		return err
	}
	list, err := s.db.SiteIntegrations(r.Context(), site.OrgID, site.ID)
	if err != nil {
		return err
	}
	o := s.owners(r)
	out := listJSON[wire.Integration]{Items: []wire.Integration{}}
	needle := strings.ToLower(search)
	for _, in := range list {
		if needle != "" && !strings.Contains(strings.ToLower(in.Name), needle) && !strings.Contains(strings.ToLower(in.Title), needle) {
			continue
		}
		owner, err := o.get(in.OrgID)
		if err != nil {
			return err
		}
		out.Items = append(out.Items, s.integrationJSON(in, owner))
	}
	out.Count = len(out.Items)
	return writeJSON(w, http.StatusOK, out)
}

// listSiteIntegrationScripts answers GET SITE/integration-scripts: the
// scripts the published site loads for its integrations. Quire runs no
// integration code, in sites or elsewhere, so there are none.
func (s *Server) listSiteIntegrationScripts(w http.ResponseWriter, r *http.Request) error {
	if _, _, err := s.site(r, quire.RoleRead); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, []struct{}{})
}
