package api

import (
	"net/http"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
)

// checkMergeRules refuses (403) a merge of c by the caller that the merge
// rules in force (the space's, or its organization's when it inherits)
// do not allow, naming every rule unmet (authoring.Author.UnmetMergeRules).
// With rules none, or none set, merging is as before. A locked space or a
// merged request is left for the store to answer. Imports ask here before
// they merge; POST CR/merge judges the rules within the merge
// (authoring.Author.Merge).
func (s *Server) checkMergeRules(r *http.Request, sp *quire.Space, role quire.Role, c *quire.ChangeRequest) error {
	unmet, err := s.author.UnmetMergeRules(r.Context(), sp, c, authoring.Actor{User: caller(r.Context()), Role: role})
	if err != nil {
		return err
	}
	return quire.MergeRulesError(unmet)
}
