package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// fakeWOFF2 is a file with a WOFF2 signature: what the check reads.
func fakeWOFF2(body string) []byte { return append([]byte("wOF2\x00\x01\x00\x00"), body...) }

type fontOut struct {
	ID, FontFamily string
	Custom         bool
	FontFaces      []struct {
		Weight  int
		Sources []struct{ URL, Format string }
	}
	Permissions struct{ Edit bool }
}

// TestCustomFonts: admins add a font from uploaded WOFF2/WOFF files, list,
// change and delete it; its files are served with no token; files that are
// not fonts, fonts without a regular face, and other organizations' or
// non-admins' changes are refused.
func TestCustomFonts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	editor := e.addUser(t, "edit", "Ed Editor")
	regular := e.upload(t, e.admin.token, e.org, "inter.woff2", fakeWOFF2("regular"))
	bold := e.upload(t, e.admin.token, e.org, "inter-bold.woff", append([]byte("wOFF"), "bold"...))
	notFont := e.upload(t, e.admin.token, e.org, "inter.zip", []byte("PK\x03\x04 not a font"))
	fonts := "/v1/orgs/" + e.org + "/fonts"

	var f fontOut
	urlCall(t, e, e.admin.token, "PUT", fonts, map[string]any{"fontFamily": "Inter", "fontFaces": []map[string]any{
		{"weight": 400, "storageKey": regular}, {"weight": 700, "storageKey": bold}}}, http.StatusCreated).Decode(t, &f)
	if f.FontFamily != "Inter" || !f.Custom || !f.Permissions.Edit || len(f.FontFaces) != 2 ||
		f.FontFaces[0].Weight != 400 || f.FontFaces[0].Sources[0].Format != "woff2" || f.FontFaces[1].Sources[0].Format != "woff" {
		t.Fatalf("created %+v", f)
	}
	// The file, with no token.
	res := e.call(t, "", "GET", strings.TrimPrefix(f.FontFaces[0].Sources[0].URL, testPublicURL), nil).want(t, http.StatusOK)
	if string(res.Body) != string(fakeWOFF2("regular")) || res.Header.Get("Content-Type") != "font/woff2" {
		t.Errorf("font file: %q %q", res.Header.Get("Content-Type"), res.Body)
	}
	e.call(t, "", "GET", fonts+"/"+f.ID+"/files/300", nil).want(t, http.StatusNotFound)

	var list struct {
		Items []fontOut
		Count int
	}
	urlCall(t, e, editor.token, "GET", fonts, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 1 || list.Items[0].ID != f.ID || list.Items[0].Permissions.Edit {
		t.Errorf("list as an editor: %+v", list)
	}
	urlCall(t, e, editor.token, "GET", fonts+"/"+f.ID, nil, http.StatusOK)

	// Rename, drop the bold face; the regular face stays.
	var updated fontOut
	urlCall(t, e, e.admin.token, "POST", fonts+"/"+f.ID, map[string]any{"fontFamily": "Inter UI", "fontFaces": []map[string]any{
		{"weight": 700, "storageKey": nil}}}, http.StatusCreated).Decode(t, &updated)
	if updated.FontFamily != "Inter UI" || len(updated.FontFaces) != 1 || updated.FontFaces[0].Weight != 400 {
		t.Errorf("updated %+v", updated)
	}
	urlCall(t, e, e.admin.token, "POST", fonts+"/"+f.ID, map[string]any{"fontFaces": []map[string]any{
		{"weight": 400, "storageKey": nil}}}, http.StatusPreconditionFailed)

	// Refused: not a font, no regular face, bad weights, strangers.
	bad := func(body map[string]any, status int, field string) {
		t.Helper()
		urlCall(t, e, e.admin.token, "PUT", fonts, body, status)
		e.call(t, e.admin.token, "PUT", fonts, body).wantError(t, status, field)
	}
	bad(map[string]any{"fontFamily": "X", "fontFaces": []map[string]any{{"weight": 400, "storageKey": notFont}}}, http.StatusBadRequest, "not a WOFF")
	bad(map[string]any{"fontFamily": "X", "fontFaces": []map[string]any{{"weight": 700, "storageKey": bold}}}, http.StatusPreconditionFailed, "400")
	bad(map[string]any{"fontFamily": "X", "fontFaces": []map[string]any{{"weight": 1001, "storageKey": regular}}}, http.StatusBadRequest, "weight")
	bad(map[string]any{"fontFamily": "", "fontFaces": []map[string]any{{"weight": 400, "storageKey": regular}}}, http.StatusBadRequest, "fontFamily")
	bad(map[string]any{"fontFamily": "X", "fontFaces": []map[string]any{{"weight": 400, "storageKey": "upload-nope"}}}, http.StatusNotFound, "storageKey")
	urlCall(t, e, editor.token, "PUT", fonts, map[string]any{"fontFamily": "X", "fontFaces": []map[string]any{{"weight": 400, "storageKey": regular}}}, http.StatusForbidden)
	outsider := e.outsider(t)
	urlCall(t, e, outsider.token, "GET", fonts+"/"+f.ID, nil, http.StatusNotFound)
	urlCall(t, e, outsider.token, "DELETE", fonts+"/"+f.ID, nil, http.StatusNotFound)
	urlCall(t, e, e.admin.token, "GET", fonts, nil, http.StatusOK).Decode(t, &list)
	if list.Count != 1 {
		t.Errorf("refused creates left fonts: %+v", list)
	}

	e.call(t, e.admin.token, "POST", "/v1/orgs/"+e.org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": "huge.woff2", "type": "font/woff2", "size": 5 << 20}, "kind": "customization_font"}).
		wantError(t, http.StatusRequestEntityTooLarge, "font")
	var log auditListOut
	e.call(t, e.admin.token, "GET", "/v1/orgs/"+e.org+"/audit-events?action=font.create", nil).want(t, http.StatusOK).Decode(t, &log)
	if log.Count != 1 || log.Items[0].Target.Type != "font" || log.Items[0].Target.ID != f.ID || log.Items[0].Target.Label != "" {
		t.Errorf("audit of the font: %+v", log)
	}

	urlCall(t, e, e.admin.token, "DELETE", fonts+"/"+f.ID, nil, http.StatusResetContent)
	urlCall(t, e, e.admin.token, "DELETE", fonts+"/"+f.ID, nil, http.StatusNoContent)
	urlCall(t, e, e.admin.token, "GET", fonts+"/"+f.ID, nil, http.StatusNotFound)
	e.call(t, "", "GET", strings.TrimPrefix(f.FontFaces[0].Sources[0].URL, testPublicURL), nil).want(t, http.StatusNotFound)
}
