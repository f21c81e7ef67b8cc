package api_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSignedFileDownload: a file's downloadURL is signed, so that a
// visitor's browser, which has no token, fetches an image of a published
// page: the same bytes, typed, never sniffed, cacheable until the link
// expires, at least a month ahead; within a week every answer gives the same
// address. Altered or expired links are refused with the JSON error, and no
// link reaches another organization's file.
func TestSignedFileDownload(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	now := time.Now()
	e.db.Now = func() time.Time { return now }
	logo := tinyPNG(t, 3, 2)
	spaceID, cr := e.newChangeRequest(t)
	e.author(t, e.admin.token, cr,
		insertFiles(map[string]any{"ref": "logo", "name": "logo.png", "contentType": "image/png", "base64": base64.StdEncoding.EncodeToString(logo)},
			map[string]any{"name": "notes.txt", "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString([]byte("notes"))}),
		insertPage("home", "# Home\n\n![The logo](logo)\n"),
	).want(t, http.StatusOK)
	e.readMerge(t, cr)
	sp := "/v1/spaces/" + spaceID
	rev := e.revision(t, sp+"/content")
	var logoF, notesF fileOut
	for _, f := range rev.Files {
		switch f.Name {
		case "logo.png":
			logoF = f
		case "notes.txt":
			notesF = f
		}
	}
	u, err := url.Parse(logoF.DownloadURL)
	if err != nil || u.Path != "/file/"+spaceID+"/"+rev.ID+"/"+logoF.ID {
		t.Fatalf("downloadURL %q: want /file/%s/%s/%s", logoF.DownloadURL, spaceID, rev.ID, logoF.ID)
	}
	expires, err := strconv.ParseInt(u.Query().Get("expires"), 10, 64)
	week := int64(7 * 24 * 60 * 60)
	if err != nil || expires%week != 0 || expires < now.Add(31*24*time.Hour).Unix() || expires > now.Add(38*24*time.Hour).Unix() {
		t.Errorf("expires %q: want a multiple of a week, 31 to 38 days ahead", u.Query().Get("expires"))
	}

	// Without a token: the bytes, typed, cacheable until the expiry.
	res := e.readDownload(t, "", logoF.DownloadURL).want(t, http.StatusOK)
	if !bytes.Equal(res.Body, logo) {
		t.Errorf("download: %d bytes, want the %d uploaded", len(res.Body), len(logo))
	}
	h := res.Header
	wantCache := "public, max-age=" + strconv.FormatInt(expires-now.Unix(), 10) + ", immutable"
	if h.Get("Content-Type") != "image/png" || h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Cache-Control") != wantCache {
		t.Errorf("headers %v; want image/png, nosniff, %q", h, wantCache)
	}
	// An API token sent along changes nothing; the bearer route still serves it.
	e.readDownload(t, e.admin.token, logoF.DownloadURL).want(t, http.StatusOK)
	e.readDownload(t, e.admin.token, bearerDownload(spaceID, rev.ID, logoF.ID)).want(t, http.StatusOK)

	// Every answer within the week gives the same address: the file list,
	// the file, and a day later the revision.
	var list fileListOut
	e.readGet(t, e.admin.token, sp+"/content/files", &list)
	var one fileOut
	e.readGet(t, e.admin.token, sp+"/content/files/"+logoF.ID, &one)
	later := time.Unix(expires, 0).Add(-31*24*time.Hour - time.Hour)
	if later.Before(now) {
		later = now
	}
	e.db.Now = func() time.Time { return later }
	again := e.revision(t, sp+"/content")
	for _, got := range []string{list.Items[0].DownloadURL, one.DownloadURL, again.Files[0].DownloadURL} {
		if got != logoF.DownloadURL {
			t.Errorf("downloadURL %q, want the same %q", got, logoF.DownloadURL)
		}
	}
	e.db.Now = func() time.Time { return now }

	// Another organization's file, on the same server.
	other := &env{db: e.db, srv: e.srv}
	other.initOrg(t)
	otherSpace, otherCR := other.newChangeRequest(t)
	other.author(t, other.admin.token, otherCR, insertFiles(map[string]any{"name": "secret.txt", "contentType": "text/plain",
		"base64": base64.StdEncoding.EncodeToString([]byte("secret"))})).want(t, http.StatusOK)
	otherRev := other.revision(t, otherCR+"/content")
	if len(otherRev.Files) != 1 {
		t.Fatalf("the other organization's files: %+v", otherRev.Files)
	}
	secret := otherRev.Files[0]

	tampered := func(edit func(q url.Values, u *url.URL)) string {
		v, _ := url.Parse(logoF.DownloadURL)
		q := v.Query()
		edit(q, v)
		v.RawQuery = q.Encode()
		return v.String()
	}
	for name, bad := range map[string]string{
		"later expiry":  tampered(func(q url.Values, _ *url.URL) { q.Set("expires", strconv.FormatInt(expires+week, 10)) }),
		"no expiry":     tampered(func(q url.Values, _ *url.URL) { q.Del("expires") }),
		"no signature":  tampered(func(q url.Values, _ *url.URL) { q.Del("signature") }),
		"bad signature": tampered(func(q url.Values, _ *url.URL) { q.Set("signature", "AAAA"+q.Get("signature")[4:]) }),
		"not base64":    tampered(func(q url.Values, _ *url.URL) { q.Set("signature", "!!") }),
		"another file":  tampered(func(_ url.Values, u *url.URL) { u.Path = strings.Replace(u.Path, logoF.ID, notesF.ID, 1) }),
		"another org's file": tampered(func(_ url.Values, u *url.URL) {
			u.Path = "/file/" + otherSpace + "/" + otherRev.ID + "/" + secret.ID
		}),
	} {
		res := e.readDownload(t, "", bad)
		res.wantError(t, http.StatusForbidden, "signature")
		if bytes.Contains(res.Body, []byte("secret")) && name == "another org's file" {
			t.Errorf("%s: served %q", name, res.Body)
		}
	}
	// The other organization's own link serves its file, and only it.
	if res := other.readDownload(t, "", secret.DownloadURL).want(t, http.StatusOK); string(res.Body) != "secret" {
		t.Errorf("the other organization's file: %q", res.Body)
	}

	// Once expired, refused.
	e.db.Now = func() time.Time { return time.Unix(expires, 0) }
	e.readDownload(t, "", logoF.DownloadURL).wantError(t, http.StatusForbidden, "expired")
	e.db.Now = func() time.Time { return now }

	// A deleted space's files are not found.
	e.call(t, e.admin.token, "DELETE", sp, nil).want(t, http.StatusNoContent)
	e.readDownload(t, "", logoF.DownloadURL).wantError(t, http.StatusNotFound, "space")
}
