package site

import (
	"net/http"
)

// Placeholders so that this branch builds until i14-search (serveSearch,
// serveAsk, serveMCP) and i14-access (signInURL) are merged: the lead
// deletes this file at the merge.

func (s *Server) serveSearch(w http.ResponseWriter, r *http.Request, rq *request) {
	http.Error(w, "search is not implemented yet", http.StatusNotImplemented)
}

func (s *Server) serveAsk(w http.ResponseWriter, r *http.Request, rq *request) {
	http.Error(w, "ask is not implemented yet", http.StatusNotImplemented)
}

func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request, rq *request) {
	http.Error(w, "MCP is not implemented yet", http.StatusNotImplemented)
}

