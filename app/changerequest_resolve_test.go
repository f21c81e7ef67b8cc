package app_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// conflictWorld is a crWorld whose space's guide was changed by another
// change request, merged, on the same line the writer's request changes.
func conflictWorld(t *testing.T) *crWorld {
	t.Helper()
	w := newCRWorld(t)
	clash := w.openCR(t, w.token, "Clash", map[string]any{"operation": "update_page", "page": w.guide, "document": map[string]any{"markdown": "Hello other world.\n\nSecond line stays."}})
	w.api(t, w.token, "POST", "/v1/spaces/"+w.space+"/change-requests/"+clash+"/merge", nil, http.StatusOK, nil)
	return w
}

// spaceRevision is the space's current revision.
func (w *crWorld) spaceRevision(t *testing.T) string {
	t.Helper()
	var sp struct{ Revision string }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space, nil, http.StatusOK, &sp)
	if sp.Revision == "" {
		t.Fatal("the space has no revision")
	}
	return sp.Revision
}

func TestChangeRequestResolveConflict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		form      url.Values // the guide's fields
		wantTitle string
		want      string // in the guide's markdown after the merge
	}{
		{"keep the request's", url.Values{"resolve-G": {"request"}}, "Guide", "Hello new"},
		{"keep the space's", url.Values{"resolve-G": {"space"}}, "Guide", "Hello other world."},
		{"edit by hand", url.Values{"resolve-G": {"edit"}, "title-G": {"Merged guide"},
			"markdown-G": {"Hello merged world.\r\n\r\nSecond line stays.\r\n"}}, "Merged guide", "Hello merged world.\n\nSecond line stays."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := conflictWorld(t)
			wr := w.signedIn(t, w.writer.email)
			wr.get(t, w.crPath)
			a := wr.post(t, w.crPath+"/update", nil)
			wantStatus(t, "update in conflict", a, http.StatusConflict)
			wantIn(t, "conflict form", a.body, `id="resolve-form"`, `name="conflict" value="`+w.guide+`"`,
				`name="resolve-`+w.guide+`" value="request"`, `name="resolve-`+w.guide+`" value="space"`,
				`name="resolve-`+w.guide+`" value="edit"`, `name="space-revision" value="`+w.spaceRevision(t)+`"`,
				// The hand-editing box: the request's version, the marker, the space's.
				"Hello new &lt;script&gt;alert(1)&lt;/script&gt; world.\n\nSecond line stays.\n\n======= Above: this change request&#39;s version.",
				"delete this line. =======\n\nHello other world.")

			form := url.Values{"conflict": {w.guide}, "space-revision": {w.spaceRevision(t)}}
			for k, v := range tt.form {
				form[strings.Replace(k, "-G", "-"+w.guide, 1)] = v
			}
			a = wr.post(t, w.crPath+"/resolve", form)
			wantStatus(t, "resolve", a, http.StatusSeeOther)
			a = wr.get(t, a.location)
			wantIn(t, "resolved", a.body, "Conflicts resolved")
			if strings.Contains(a.body, `id="update-from-main"`) {
				t.Error("still offered Update from main after resolving")
			}
			var cr struct{ Outdated bool }
			w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, nil, http.StatusOK, &cr)
			if cr.Outdated {
				t.Error("still outdated after resolving")
			}
			admin := w.signedIn(t, w.admin)
			admin.get(t, w.crPath)
			wantStatus(t, "merge", admin.post(t, w.crPath+"/merge", nil), http.StatusSeeOther)
			var pg struct{ Title, Markdown string }
			w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/content/page/"+w.guide+"?format=markdown", nil, http.StatusOK, &pg)
			if pg.Title != tt.wantTitle || !strings.Contains(pg.Markdown, tt.want) {
				t.Errorf("the space's guide after the merge: %q %q, want %q holding %q", pg.Title, pg.Markdown, tt.wantTitle, tt.want)
			}
		})
	}
}

func TestChangeRequestResolveRefused(t *testing.T) {
	t.Parallel()
	w := conflictWorld(t)
	head := w.spaceRevision(t)
	choose := func(choice string) url.Values {
		return url.Values{"conflict": {w.guide}, "space-revision": {head}, "resolve-" + w.guide: {choice}}
	}
	var before struct{ Revision string }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, nil, http.StatusOK, &before)

	reader := w.signedIn(t, w.reader.email)
	reader.get(t, w.crPath)
	wantStatus(t, "a reader resolves", reader.post(t, w.crPath+"/resolve", choose("request")), http.StatusForbidden)

	wr := w.signedIn(t, w.writer.email)
	wr.get(t, w.crPath)
	forged := choose("request")
	forged.Set("csrf", "forged")
	wantStatus(t, "forged CSRF token", wr.post(t, w.crPath+"/resolve", forged), http.StatusForbidden)

	// No choice made: still in conflict, the form shown again.
	a := wr.post(t, w.crPath+"/resolve", url.Values{"conflict": {w.guide}, "space-revision": {head}})
	wantStatus(t, "no choice", a, http.StatusConflict)
	wantIn(t, "no choice", a.body, "still in conflict", `id="resolve-form"`)

	// Edited, but the marker left in: refused, and the text typed kept.
	kept := choose("edit")
	kept.Set("markdown-"+w.guide, "My merge.\n\n"+"======= Above: this change request's version. Below: the space's. Keep what you want, then delete this line. =======\n")
	a = wr.post(t, w.crPath+"/resolve", kept)
	wantStatus(t, "marker left in", a, http.StatusBadRequest)
	wantIn(t, "marker left in", a.body, "still holds the line", ">My merge.\n", `value="edit" checked`)

	// Made against an older revision of the space: shown again.
	stale := choose("request")
	stale.Set("space-revision", "old")
	a = wr.post(t, w.crPath+"/resolve", stale)
	wantStatus(t, "stale", a, http.StatusConflict)
	wantIn(t, "stale", a.body, "The space changed while you were resolving")

	var after struct{ Revision string }
	w.api(t, w.token, "GET", "/v1/spaces/"+w.space+"/change-requests/"+w.cr, nil, http.StatusOK, &after)
	if before.Revision == "" || after.Revision != before.Revision {
		t.Error("a refused resolution changed the change request")
	}
}
