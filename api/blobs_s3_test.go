package api_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/s3test"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store/storetest"
)

// TestFilesInS3: with file bytes in an S3-compatible bucket (a real
// versitygw), a file uploaded in a batch downloads whole, in ranges and
// revalidates by ETag, through the API's download URL; the same bytes
// uploaded again are one object; and after the S3 server restarts the file
// still downloads.
func TestFilesInS3(t *testing.T) {
	srv := s3test.Start(t)
	st, err := blob.OpenStore(t.Context(), srv.URL("quire-api", "files"))
	if err != nil {
		t.Fatal(err)
	}
	db := storetest.Open(t)
	e := &env{db: db, srv: api.New(db, api.Config{PublicURL: testPublicURL, Blobs: st, Fetcher: outbound.Fetcher{AllowPrivate: true}})}
	e.initOrg(t)
	_, cr := e.newChangeRequest(t)

	data := bytes.Repeat([]byte("0123456789abcdef"), 20_000) // 320,000 bytes
	upload := func(name string) fileOut {
		var out cmBatchOut
		e.call(t, e.admin.token, "POST", cr+"/content?compat=false", map[string]any{"changes": []map[string]any{
			{"operation": "insert_files", "files": []map[string]any{{"ref": name, "name": name, "contentType": "text/plain", "base64": base64.StdEncoding.EncodeToString(data)}}},
		}}).want(t, http.StatusOK).Decode(t, &out)
		if len(out.InsertedFiles) != 1 {
			t.Fatalf("insertedFiles %+v", out.InsertedFiles)
		}
		return out.InsertedFiles[0]
	}
	f := upload("numbers.txt")
	path, _ := strings.CutPrefix(f.DownloadURL, testPublicURL)
	get := func(header ...string) *response {
		req := httptest.NewRequestWithContext(t.Context(), "GET", path, nil)
		req.Header.Set("Authorization", "Bearer "+e.admin.token)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		return e.do(t, req)
	}

	whole := get().want(t, http.StatusOK)
	if !bytes.Equal(whole.Body, data) {
		t.Fatalf("download: %d bytes, want the %d uploaded", len(whole.Body), len(data))
	}
	etag := whole.Header.Get("ETag")
	if etag != `"`+blob.Key(data)+`"` {
		t.Errorf("ETag %q, want the content hash", etag)
	}
	part := get("Range", "bytes=250000-250015").want(t, http.StatusPartialContent)
	if string(part.Body) != "0123456789abcdef" || part.Header.Get("Content-Range") != "bytes 250000-250015/320000" {
		t.Errorf("range: %q, Content-Range %q", part.Body, part.Header.Get("Content-Range"))
	}
	tail := get("Range", "bytes=-5").want(t, http.StatusPartialContent)
	if string(tail.Body) != "bcdef" {
		t.Errorf("suffix range: %q", tail.Body)
	}
	get("If-None-Match", etag).want(t, http.StatusNotModified)

	// The same bytes under another name: one object in the bucket.
	upload("again.txt")
	n := 0
	if err := st.Walk(time.Time{}, func(string, time.Time) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("%d objects in the bucket after uploading the same bytes twice", n)
	}

	srv.Restart()
	if again := get().want(t, http.StatusOK); !bytes.Equal(again.Body, data) {
		t.Fatalf("download after the S3 server restarted: %d bytes", len(again.Body))
	}
}
