package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/authoring"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/wire"
)

// Custom fonts (issue 19): an organization's font families, each face a
// WOFF or WOFF2 file uploaded first (POST O/storage/upload, kind
// customization_font) and named by its storage key. The files are kept in
// the blob store and served, with no token, at the URLs the font's sources
// give, for published sites' pages to load.

// faces reads the files of a validated body's faces, each checked first
// (wire.CustomFontInput.Face): the changes to make, a nil Face removing a
// weight (only in an update).
func (s *Server) faces(r *http.Request, orgID string, body *wire.CustomFontInput) ([]store.FontFaceChange, error) {
	var out []store.FontFaceChange
	for i := range body.FontFaces {
		field, weight, key, err := body.Face(i)
		if err != nil {
			return nil, err
		}
		if key == nil {
			out = append(out, store.FontFaceChange{Weight: weight})
			continue
		}
		face, err := s.author.FontFace(r.Context(), orgID, field+".storageKey", weight, *key)
		if err != nil {
			return nil, err
		}
		out = append(out, store.FontFaceChange{Weight: weight, Face: face})
	}
	return out, nil
}

func (s *Server) listFonts(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	return listPage(w, r, func(ctx context.Context, p store.Page) (*store.List[*store.Font], error) {
		return s.db.ListFonts(ctx, me.OrgID, p)
	}, func(f *store.Font) wire.Font { return s.wire.Font(f, me) })
}

func (s *Server) getFont(w http.ResponseWriter, r *http.Request) error {
	me, err := s.membership(r)
	if err != nil {
		return err
	}
	f, err := s.db.Font(r.Context(), me.OrgID, r.PathValue("fontId"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, s.wire.Font(f, me))
}

// readFont starts a font write: organization admins only, then the body
// and its faces checked and their files read; update allows a family left
// out and faces removed (null storage key).
func (s *Server) readFont(w http.ResponseWriter, r *http.Request, update bool) (*quire.Member, *wire.CustomFontInput, []store.FontFaceChange, error) {
	me, err := s.orgAdmin(r)
	if err != nil {
		return nil, nil, nil, err
	}
	body := wire.CustomFontInput{Update: update}
	if err := readRequest(w, r, &body); err != nil {
		return nil, nil, nil, err
	}
	changes, err := s.faces(r, me.OrgID, &body)
	return me, &body, changes, err
}

// createFont answers PUT O/fonts: organization admins add a font, with a
// regular (400) face at least.
func (s *Server) createFont(w http.ResponseWriter, r *http.Request) error {
	me, body, changes, err := s.readFont(w, r, false)
	if err != nil {
		return err
	}
	faces := make([]store.FontFace, 0, len(changes))
	for _, c := range changes {
		faces = append(faces, *c.Face)
	}
	f, err := s.author.CreateFont(r.Context(), me.OrgID, *body.FontFamily, me.User.ID, faces)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, s.wire.Font(f, me))
}

// updateFont answers POST O/fonts/{fontId}: a new family name, and faces
// set or, with a null storage key, removed; the regular face stays.
func (s *Server) updateFont(w http.ResponseWriter, r *http.Request) error {
	me, body, changes, err := s.readFont(w, r, true)
	if err != nil {
		return err
	}
	family := "" // keeps it
	if body.FontFamily != nil {
		family = *body.FontFamily
	}
	f, err := s.db.UpdateFont(r.Context(), me.OrgID, r.PathValue("fontId"), family, changes)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusCreated, s.wire.Font(f, me)) // the reference's 201
}

// deleteFont answers 205 when it deleted the font, 204 when there was none.
func (s *Server) deleteFont(w http.ResponseWriter, r *http.Request) error {
	me, err := s.orgAdmin(r)
	if err != nil {
		return err
	}
	existed, err := s.db.DeleteFont(r.Context(), me.OrgID, r.PathValue("fontId"))
	if err != nil {
		return err
	}
	return deleted(w, existed)
}

// getFontFile serves a face's file, with no token: published sites' pages
// load it. Not in the reference: where its sources' URLs lead.
func (s *Server) getFontFile(w http.ResponseWriter, r *http.Request) error {
	notFound := errorf(quire.CodeNotFound, "font file not found")
	f, err := s.db.Font(r.Context(), r.PathValue("organizationId"), r.PathValue("fontId"))
	if err != nil {
		if quire.ErrorCode(err) == quire.CodeNotFound {
			return notFound
		}
		return err
	}
	weight, err := strconv.Atoi(r.PathValue("weight"))
	if err != nil {
		return notFound
	}
	for _, face := range f.Faces {
		if face.Weight == weight {
			w.Header().Set("Access-Control-Allow-Origin", "*") // @font-face loads cross-origin from custom hostnames
			return s.serveBlob(w, r, face.Blob, authoring.FontContentType(face.Format), "", "default-src 'none'", "public, max-age=31536000, immutable")
		}
	}
	return notFound
}
