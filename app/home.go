package app

import (
	"context"
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// The home page and an organization's page: the user's organizations, then
// the collections and spaces of one as a tree, and a search box.

// maxListed bounds the organizations, collections and spaces a page lists.
const maxListed = 1000

// treeNode is a collection or a space in an organization's tree.
type treeNode struct {
	Title, Emoji, URL string
	Collection        bool
	Children          []*treeNode
}

type orgData struct {
	Orgs     []*quire.Organization
	Org      *quire.Organization
	Role     quire.Role
	Tree     []*treeNode
	Query    string
	Question string // asked in the ask box
	// Changes are the organization's recent change requests, of the spaces
	// the user reads (the org page only).
	Changes []crView
}

// home leads to the user's organization, or lists them when several.
func (s *Server) home(w http.ResponseWriter, r *http.Request) error {
	orgs, err := s.db.ListUserOrganizations(r.Context(), user(r.Context()).ID, store.Page{Limit: maxListed})
	if err != nil {
		return err
	}
	if len(orgs.Items) == 1 {
		http.Redirect(w, r, quire.AppOrgURL("", orgs.Items[0].ID), http.StatusSeeOther)
		return nil
	}
	return s.render(w, r, http.StatusOK, "home", "Home", orgData{Orgs: orgs.Items})
}

// viewer is the signed-in user's viewer of an organization's content; 404
// for who is not a member, as the API answers.
func (s *Server) viewer(ctx context.Context, orgID string) (*quire.Viewer, error) {
	v, err := s.db.Viewer(ctx, orgID, user(ctx).ID, nil)
	if err == nil && !v.Member {
		err = quire.Errorf(quire.CodeNotFound, "organization not found")
	}
	return v, err
}

// orgPage shows an organization's collections and spaces that the user sees.
func (s *Server) orgPage(w http.ResponseWriter, r *http.Request) error {
	d, err := s.orgData(r, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	if d.Changes, err = s.recentChanges(r.Context(), d.Org.ID); err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "org", d.Org.Title, d)
}

func (s *Server) orgData(r *http.Request, orgID string) (*orgData, error) {
	ctx := r.Context()
	v, err := s.viewer(ctx, orgID)
	if err != nil {
		return nil, err
	}
	org, err := s.db.Organization(ctx, orgID)
	if err != nil {
		return nil, err
	}
	orgs, err := s.db.ListUserOrganizations(ctx, user(ctx).ID, store.Page{Limit: maxListed})
	if err != nil {
		return nil, err
	}
	tree, err := s.tree(ctx, orgID, v, "")
	if err != nil {
		return nil, err
	}
	return &orgData{Orgs: orgs.Items, Org: org, Role: v.OrgRole, Tree: tree}, nil
}

// tree is the part of an organization's tree below collection root ("" for
// all of it) that v sees: collections first, then spaces, each in order.
func (s *Server) tree(ctx context.Context, orgID string, v *quire.Viewer, root string) ([]*treeNode, error) {
	cols, err := s.db.ListCollections(ctx, orgID, store.CollectionFilter{VisibleTo: v}, store.Page{Limit: maxListed})
	if err != nil {
		return nil, err
	}
	spaces, err := s.db.ListSpaces(ctx, orgID, store.SpaceFilter{VisibleTo: v}, store.Page{Limit: maxListed})
	if err != nil {
		return nil, err
	}
	byID := map[string]*treeNode{root: {}}
	var attach func(parent string, n *treeNode)
	attach = func(parent string, n *treeNode) {
		if p, ok := byID[parent]; ok {
			p.Children = append(p.Children, n)
		}
	}
	for _, c := range cols.Items { // in tree order: a parent before its children
		n := &treeNode{Title: c.Title, URL: quire.AppCollectionURL("", c.ID), Collection: true}
		byID[c.ID] = n
		attach(c.ParentID, n)
	}
	for _, sp := range spaces.Items {
		attach(sp.ParentID, &treeNode{Title: sp.Title, Emoji: sp.Emoji, URL: quire.AppSpaceURL("", sp.ID)})
	}
	return byID[root].Children, nil
}

type collectionData struct {
	Collection *quire.Collection
	Tree       []*treeNode
}

// collectionPage shows a collection and what it holds, to who sees it.
func (s *Server) collectionPage(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	c, err := s.db.Collection(ctx, r.PathValue("collectionId"))
	if err != nil {
		return err
	}
	if !c.DeletedAt.IsZero() {
		return quire.Errorf(quire.CodeNotFound, "collection not found")
	}
	v, err := s.db.Viewer(ctx, c.OrgID, user(ctx).ID, nil)
	if err != nil {
		return err
	}
	if err := quire.RequireRole(v.RoleOn(c.ID, c.DefaultLevel, c.Ancestors), quire.RoleRead, "collection"); err != nil {
		return err
	}
	tree, err := s.tree(ctx, c.OrgID, v, c.ID)
	if err != nil {
		return err
	}
	return s.render(w, r, http.StatusOK, "collection", c.Title, collectionData{Collection: c, Tree: tree})
}
