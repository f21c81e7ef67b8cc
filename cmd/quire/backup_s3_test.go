package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/internal/s3test"
	"github.com/quiredocs/quire/store"
)

// TestBackupRestoreS3: with --blobs naming a bucket of a real S3 server,
// admin backup copies the bucket's files into the archive and admin restore
// uploads them into another bucket, where the restored store finds them.
// (SQLite only: the files, not the database, are what differ on S3.)
func TestBackupRestoreS3(t *testing.T) {
	srv := s3test.Start(t)
	ctx := t.Context()
	src := testStore{data: t.TempDir()}
	srcURL := srv.URL("quire-source", "files")
	var boot initOut
	src.admin(t, &boot, "init", "--org", "Acme", "--email", "ada@example.com", "--name", "Ada")
	db := src.open(t)
	blobs, err := blob.OpenStore(ctx, srcURL)
	if err != nil {
		t.Fatal(err)
	}
	me, err := db.UserByEmail(ctx, "ada@example.com")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := db.CreateSpace(ctx, boot.Organization.ID, store.NewSpace{Title: "Files"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateChangeRequest(ctx, sp.ID, "Seed", me.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EditChangeRequest(ctx, sp.ID, c.ID, me.ID, addPageWithFile(blobs, "seed")); err != nil {
		t.Fatal(err)
	}
	if _, err := db.MergeChangeRequest(ctx, sp.ID, c.ID, me.ID); err != nil {
		t.Fatal(err)
	}

	file := filepath.Join(t.TempDir(), "backup.tar.gz")
	stdout, stderr, err := runCLI(t, src.args("admin", "backup", file, "--blobs", srcURL)...)
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, stderr)
	}
	var rep backupReport
	decodeStrict(t, stdout, &rep)
	if rep.Blobs != 1 || rep.Missing != 0 {
		t.Fatalf("backup report %+v, want the one file and none missing", rep)
	}

	dst := testStore{data: t.TempDir()}
	dstURL := srv.URL("quire-restored", "")
	stdout, stderr, err = runCLI(t, dst.args("admin", "restore", file, "--blobs", dstURL)...)
	if err != nil {
		t.Fatalf("restore: %v\n%s", err, stderr)
	}
	decodeStrict(t, stdout, &rep)
	if rep.Blobs != 1 || rep.Missing != 0 {
		t.Fatalf("restore report %+v, want the one file and none missing", rep)
	}
	restored, err := blob.OpenStore(context.Background(), dstURL)
	if err != nil {
		t.Fatal(err)
	}
	r, err := restored.Open(ctx, blob.Key([]byte("bytes of seed")))
	if err != nil {
		t.Fatalf("the file is not in the restored bucket: %v", err)
	}
	defer r.Close()
	if b, _ := io.ReadAll(r); string(b) != "bytes of seed" {
		t.Errorf("restored bytes %q", b)
	}
}

// TestBlobsSettingRefused: a malformed --blobs URL stops the command with
// an error naming the setting.
func TestBlobsSettingRefused(t *testing.T) {
	s := newTestStore(t)
	for _, bad := range []string{"s3://bucket?secret=x", "s3://bucket?insecure=maybe", "s3:///no-bucket"} {
		_, _, err := runCLI(t, s.args("admin", "gc", "--blobs", bad)...)
		if err == nil || !strings.Contains(err.Error(), "--blobs (env QUIRE_BLOBS)") {
			t.Errorf("--blobs %s: %v", bad, err)
		}
	}
}
