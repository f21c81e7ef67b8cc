package blob_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/s3test"
)

// randomBytes returns n bytes that do not compress and differ per seed.
func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func readAll(t *testing.T, s blob.Store, key string) []byte {
	t.Helper()
	r, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func countBlobs(t *testing.T, s blob.Collectable) map[string]time.Time {
	t.Helper()
	seen := map[string]time.Time{}
	if err := s.Walk(time.Time{}, func(key string, mod time.Time) error { seen[key] = mod; return nil }); err != nil {
		t.Fatal(err)
	}
	return seen
}

// testStore is what every blob store must do, run against each of them.
func testStore(t *testing.T, s blob.Collectable) {
	ctx := context.Background()

	// Content keys, and one copy for the same bytes stored twice.
	key, err := s.Put(ctx, []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	if key != blob.Key([]byte("hello")) {
		t.Fatalf("key %s is not the content's hash", key)
	}
	if again, err := s.Put(ctx, []byte("hello")); err != nil || again != key {
		t.Fatalf("second put: %s, %v", again, err)
	}
	if got := readAll(t, s, key); string(got) != "hello" {
		t.Fatalf("read %q", got)
	}
	if seen := countBlobs(t, s); len(seen) != 1 || seen[key].IsZero() {
		t.Fatalf("after storing the same bytes twice the store lists %v", seen)
	}

	// A file is stored as it is read, under its content's key, from its
	// start wherever it was left; the same bytes again are one blob.
	file, err := os.CreateTemp(t.TempDir(), "put-file")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	written := randomBytes(3<<20+17, 7)
	if _, err := file.Write(written); err != nil {
		t.Fatal(err)
	}
	fileKey, size, err := blob.PutFile(ctx, s, file)
	if err != nil || fileKey != blob.Key(written) || size != int64(len(written)) {
		t.Fatalf("PutFile = %s, %d, %v; want %s, %d", fileKey, size, err, blob.Key(written), len(written))
	}
	if got := readAll(t, s, fileKey); !bytes.Equal(got, written) {
		t.Fatalf("the file read back differs (%d bytes)", len(got))
	}
	if again, _, err := blob.PutFile(ctx, s, file); err != nil || again != fileKey {
		t.Fatalf("second PutFile: %s, %v", again, err)
	}
	if seen := countBlobs(t, s); len(seen) != 2 {
		t.Fatalf("after storing a file twice the store lists %d blobs, want 2", len(seen))
	}
	if _, err := s.RemoveOlder(fileKey, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}

	// Missing and malformed keys are not there, and name nothing else.
	for _, bad := range []string{"", "../../etc/passwd", blob.Key([]byte("never stored")), "zz" + key[2:]} {
		if _, err := s.Open(ctx, bad); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Open(%q) = %v, want not exist", bad, err)
		}
	}

	// Seeking reads from anywhere, as range requests need.
	big := randomBytes(300_000, 1)
	bigKey, err := s.Put(ctx, big)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Open(ctx, bigKey)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := r.Seek(0, io.SeekEnd); err != nil || n != int64(len(big)) {
		t.Fatalf("seek to end: %d, %v", n, err)
	}
	if _, err := r.Seek(200_000, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	part := make([]byte, 1000)
	if _, err := io.ReadFull(r, part); err != nil || !bytes.Equal(part, big[200_000:201_000]) {
		t.Fatalf("read after seek: %v, bytes equal %v", err, bytes.Equal(part, big[200_000:201_000]))
	}
	r.Close()

	// Storing bytes again dates them anew, so a collection running with a
	// cutoff between the two writes keeps them (S3 dates by the second).
	first := countBlobs(t, s)[key]
	time.Sleep(1100 * time.Millisecond)
	if _, err := s.Put(ctx, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if removed, err := s.RemoveOlder(key, first.Add(time.Second/2)); err != nil || removed {
		t.Fatalf("RemoveOlder of a blob stored again after the cutoff: %v, %v", removed, err)
	}

	// Collection: what was written after the cutoff stays, what was
	// written before goes, and can be stored again.
	if removed, err := s.RemoveOlder(key, time.Now().Add(-time.Hour)); err != nil || removed {
		t.Fatalf("RemoveOlder with an old cutoff: %v, %v", removed, err)
	}
	if removed, err := s.RemoveOlder(key, time.Now().Add(time.Hour)); err != nil || !removed {
		t.Fatalf("RemoveOlder with a later cutoff: %v, %v", removed, err)
	}
	if _, err := s.Open(ctx, key); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("open after removal: %v", err)
	}
	if removed, err := s.RemoveOlder(key, time.Now().Add(time.Hour)); err != nil || removed {
		t.Fatalf("RemoveOlder of a removed blob: %v, %v", removed, err)
	}
	if seen := countBlobs(t, s); len(seen) != 1 {
		t.Fatalf("after removing one of two blobs the store lists %d", len(seen))
	}
	if _, err := s.Put(ctx, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s, key); string(got) != "hello" {
		t.Fatalf("read after storing again %q", got)
	}
}

func TestDirConformance(t *testing.T) {
	testStore(t, blob.Dir{Path: filepath.Join(t.TempDir(), "blobs")})
}

func openS3(t *testing.T, srv *s3test.Server, prefix string) *blob.S3 {
	t.Helper()
	st, err := blob.OpenStore(context.Background(), srv.URL("quire-test", prefix))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*blob.S3)
}

func TestS3Conformance(t *testing.T) {
	srv := s3test.Start(t)
	s := openS3(t, srv, "some/prefix")
	testStore(t, s)
	// Another prefix of the same bucket is another store.
	if seen := countBlobs(t, openS3(t, srv, "other")); len(seen) != 0 {
		t.Errorf("a store under another prefix lists %d blobs", len(seen))
	}
}

// TestS3Multipart: a file larger than the part size goes up in parts and
// comes back byte for byte.
func TestS3Multipart(t *testing.T) {
	srv := s3test.Start(t)
	s := openS3(t, srv, "")
	s.PartSize = 5 << 20 // S3's smallest part
	data := randomBytes(12<<20, 2)
	key, err := s.Put(context.Background(), data)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Client.StatObject(context.Background(), s.Bucket, key, minio.StatObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(info.ETag, "-3") {
		t.Errorf("ETag %q is not that of a 3-part upload", info.ETag)
	}
	if got := readAll(t, s, key); !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, not the %d stored", len(got), len(data))
	}
}

// TestS3Restart: while the server is down calls fail (and do not hang);
// once it is back, what was stored is there and storing works again.
func TestS3Restart(t *testing.T) {
	srv := s3test.Start(t)
	s := openS3(t, srv, "p")
	ctx := context.Background()
	key, err := s.Put(ctx, []byte("before the restart"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	down, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if _, err := s.Put(down, []byte("while down")); err == nil {
		t.Fatal("put succeeded with the server down")
	}
	srv.Restart()
	if got := readAll(t, s, key); string(got) != "before the restart" {
		t.Fatalf("read %q after the restart", got)
	}
	after, err := s.Put(ctx, []byte("after the restart"))
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, s, after); string(got) != "after the restart" {
		t.Fatalf("read %q", got)
	}
}

func TestParseS3URL(t *testing.T) {
	s, err := blob.ParseS3URL("s3://docs/quire/files/?endpoint=127.0.0.1:7070&region=eu-west-1&insecure=true")
	if err != nil {
		t.Fatal(err)
	}
	if s.Bucket != "docs" || s.Prefix != "quire/files/" || s.Client.EndpointURL().String() != "http://127.0.0.1:7070" {
		t.Errorf("parsed bucket %q prefix %q endpoint %s", s.Bucket, s.Prefix, s.Client.EndpointURL())
	}
	if s, err := blob.ParseS3URL("s3://docs"); err != nil || s.Prefix != "" || s.Client.EndpointURL().Scheme != "https" {
		t.Errorf("s3://docs: %v, %+v", err, s)
	}
	for _, bad := range []string{
		"s3:///prefix", "http://bucket", "s3://user@bucket",
		"s3://bucket?endpoint=host/path", "s3://bucket?insecure=maybe", "s3://bucket?secret=x",
	} {
		if _, err := blob.ParseS3URL(bad); err == nil {
			t.Errorf("ParseS3URL(%q) accepted", bad)
		}
	}
}
