package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/wire"
)

// A site's external links and MCP servers (the reference's
// SiteExternalLink and SiteMcpServer). Those who manage the site (role
// create) change them; MCP servers' headers may hold credentials, so only
// they read them too.

func (s *Server) createSiteExternalLink(w http.ResponseWriter, r *http.Request) error {
	var body wire.SiteExternalLinkInput
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	if err := body.CheckCreate(); err != nil {
		return err
	}
	created, err := s.db.CreateSiteExternalLink(r.Context(), body.NewLink(site.ID))
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
	var body wire.SiteExternalLinkInput
	if err := readRequest(w, r, &body); err != nil {
		return err
	}
	l, err := s.db.UpdateSiteExternalLink(r.Context(), site.ID, r.PathValue("siteExternalLinkId"), body.Update())
	if err != nil {
		return err
	}
	if prefer == "return=minimal" {
		w.Header().Set("Preference-Applied", prefer)
		return noContent(w)
	}
	return writeJSON(w, http.StatusOK, wire.SiteExternalLinkOf(l))
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
	var body wire.SiteMCPServerInput
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	if err := body.CheckCreate(); err != nil {
		return err
	}
	created, err := s.db.CreateSiteMCPServer(r.Context(), body.NewServer(site.ID))
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
	var body wire.SiteMCPServerInput
	site, _, err := s.siteForWrite(w, r, &body)
	if err != nil {
		return err
	}
	m, err := s.db.UpdateSiteMCPServer(r.Context(), site.ID, r.PathValue("siteMcpServerId"), body.Update())
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
	for _, in := range list {
		if !in.Matches(search) {
			continue
		}
		owner, err := o.Owner(r.Context(), in.OrgID)
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
