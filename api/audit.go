package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/web"
)

// The audit log (O/audit-events). Every authenticated request that may
// write carries an audit intent (store.AuditIntent): its action named from
// its route (quire.AuditActionOf), its target from its path, its actor and
// address. The store records it in the first transaction of the request to
// commit, with the write itself; a refused or invalid request commits
// nothing and records nothing. Doing it here, around every route, rather
// than in each of the store's hundreds of write paths, means a new route is
// audited without anyone remembering to.

// audited runs fn for a write request of user, with its audit intent.
func (s *Server) audited(w http.ResponseWriter, r *http.Request, user *quire.User, fn handlerFunc) error {
	a := web.AuditIntent(r, user, quire.AuditSourceAPI)
	a.Event.RequestID = requestID(r.Context())
	if a.OrgID == "" && a.SpaceID == "" && r.Pattern == "POST /v1/orgs" {
		a.NewOrg = true
	}
	hw := &headWriter{ResponseWriter: w}
	err := fn(hw, r.WithContext(store.WithAudit(r.Context(), a)))
	if hw.status == http.StatusCreated {
		s.auditCreated(r.Context(), a, hw.head)
	}
	return err
}

// auditCreated names the resource a create made, from the answer's object,
// id and title, as the target of the events its request recorded. It runs
// after the write's transaction, so a failure here loses only the target's
// precision, logged.
func (s *Server) auditCreated(ctx context.Context, a *store.AuditIntent, head []byte) {
	ids := a.Recorded()
	if len(ids) == 0 {
		return
	}
	var created struct {
		Object, ID, Title, Name, Label, DisplayName string
	}
	if json.NewDecoder(bytes.NewReader(head)).Decode(&created) != nil || created.ID == "" {
		return
	}
	typ := created.Object
	if typ == "" { // the resource the action names: font.create made a font
		typ, _, _ = strings.Cut(a.Event.Action, ".")
	}
	label := cmpOr(created.Title, created.Name, created.Label, created.DisplayName)
	if err := s.db.SetAuditTarget(context.WithoutCancel(ctx), ids, typ, created.ID, label); err != nil {
		s.log.Error("audit: set target", "err", err, "request_id", requestID(ctx))
	}
}

func cmpOr(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// headWriter keeps a created resource's answer (the first 64 KiB of it),
// whose id names the audit event's target.
type headWriter struct {
	http.ResponseWriter
	status int
	head   []byte
}

const maxAuditHead = 64 << 10

func (w *headWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *headWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status == http.StatusCreated && len(w.head) < maxAuditHead {
		w.head = append(w.head, b[:min(len(b), maxAuditHead-len(w.head))]...)
	}
	return w.ResponseWriter.Write(b)
}

func (w *headWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) listAuditEvents(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	q := query(r)
	f := store.AuditFilter{Action: q.Get("action"), Actor: q.Get("actor"), Target: q.Get("target")}
	for name, t := range map[string]*time.Time{"from": &f.From, "to": &f.To} {
		if v := q.Get(name); v != "" {
			if *t, err = time.Parse(time.RFC3339Nano, v); err != nil {
				return errorf(quire.CodeInvalid, "%s: must be a date-time (RFC 3339)", name)
			}
		}
	}
	p, err := pageParams(r)
	if err != nil {
		return err
	}
	// The reference's bounds for this list: 20 by default, at most 100.
	if !q.Has("limit") {
		p.Limit = 20
	} else if p.Limit > 100 {
		return errorf(quire.CodeInvalid, "limit: must be a whole number from 1 to 100")
	}
	list, err := s.db.ListAuditEvents(r.Context(), me.OrgID, f, p)
	if err != nil {
		return err
	}
	return writeList(w, list, s.wire.AuditEvent)
}

func (s *Server) getAuditEvent(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	e, err := s.db.AuditEvent(r.Context(), me.OrgID, r.PathValue("auditEventId"))
	if err != nil {
		return err
	}
	out := s.wire.AuditEvent(e)
	out.ExecutionID, out.Schema = e.RequestID, 1
	out.Payload = map[string]any{"method": e.Method, "path": e.Path, "ip": e.IP}
	return writeJSON(w, http.StatusOK, out)
}

// listAuditEventActions lists the actions of every write route of the API,
// and those the organization's log holds besides (the app's).
func (s *Server) listAuditEventActions(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	used, err := s.db.AuditActionsUsed(r.Context(), me.OrgID)
	if err != nil {
		return err
	}
	actions := append(s.AuditActions(), used...)
	slices.Sort(actions)
	actions = slices.Compact(actions)
	items := make([]map[string]string, len(actions))
	for i, a := range actions {
		items[i] = map[string]string{"object": "audit-event-action", "id": a, "label": quire.AuditActionLabel(a)}
	}
	return writeJSON(w, http.StatusOK, map[string]any{"items": items})
}

// AuditActions are the actions of the API's authenticated write routes.
func (s *Server) AuditActions() []string {
	var out []string
	for _, rt := range s.routeList {
		if rt.public || rt.method == http.MethodGet || rt.method == http.MethodHead {
			continue
		}
		out = append(out, quire.AuditActionOf(rt.method, rt.path))
	}
	slices.Sort(out)
	return slices.Compact(out)
}
