package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Collectable is a Store whose blobs garbage collection and backups can
// list and remove by age. Dir and S3 implement it.
type Collectable interface {
	Store
	// Walk calls fn with the key and last write of every blob, and clears
	// what interrupted writes older than before left behind.
	Walk(before time.Time, fn func(key string, modTime time.Time) error) error
	// RemoveOlder removes the blob key if it was last written (or Put
	// again) before before, and reports whether it did.
	RemoveOlder(key string, before time.Time) (bool, error)
}

// s3Timeout bounds one call to the object store that has no caller's
// context (listing and removing during a collection).
const s3Timeout = 2 * time.Minute

// S3 stores blobs as objects named prefix+key in a bucket of an
// S3-compatible server (Amazon S3, MinIO, versitygw, ...). Files larger
// than the part size go up in a multipart upload.
type S3 struct {
	Client *minio.Client
	Bucket string
	// Prefix is put before every key ("" or ending in "/").
	Prefix string
	// PartSize is the size of one part of a multipart upload; 0 lets the
	// client choose (16 MiB or more).
	PartSize uint64
}

// ParseS3URL reads s3://bucket/prefix?endpoint=host:port&region=…&insecure=true.
// endpoint defaults to s3.amazonaws.com; insecure=true speaks plain HTTP.
// Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and
// AWS_SESSION_TOKEN. The bucket is not contacted: see (*S3).Prepare.
func ParseS3URL(raw string) (*S3, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.User != nil || u.Fragment != "" {
		return nil, errors.New("must be s3://bucket/prefix?endpoint=host:port&region=…")
	}
	q := u.Query()
	for name := range q {
		switch name {
		case "endpoint", "region", "insecure":
		default:
			return nil, fmt.Errorf("unknown parameter %q (endpoint, region and insecure are known)", name)
		}
	}
	endpoint := q.Get("endpoint")
	if endpoint == "" {
		endpoint = "s3.amazonaws.com"
	}
	if strings.ContainsAny(endpoint, "/?#@") {
		return nil, fmt.Errorf("endpoint %q: must be host or host:port", endpoint)
	}
	insecure := false
	if v := q.Get("insecure"); v != "" {
		if insecure, err = strconv.ParseBool(v); err != nil {
			return nil, fmt.Errorf("insecure %q: must be true or false", v)
		}
	}
	client, err := minio.New(endpoint, &minio.Options{
		Creds:  credentials.NewEnvAWS(),
		Secure: !insecure,
		Region: q.Get("region"),
	})
	if err != nil {
		return nil, fmt.Errorf("endpoint %q: %w", endpoint, err)
	}
	prefix := strings.Trim(u.Path, "/")
	if prefix != "" {
		prefix += "/"
	}
	return &S3{Client: client, Bucket: u.Host, Prefix: prefix}, nil
}

// Prepare checks that the server answers and makes the bucket when it is
// missing (which needs the right to create buckets).
func (s *S3) Prepare(ctx context.Context) error {
	ok, err := s.Client.BucketExists(ctx, s.Bucket)
	if err != nil {
		return fmt.Errorf("blob: bucket %s: %w", s.Bucket, err)
	}
	if ok {
		return nil
	}
	if err := s.Client.MakeBucket(ctx, s.Bucket, minio.MakeBucketOptions{}); err != nil {
		if code := minio.ToErrorResponse(err).Code; code == "BucketAlreadyOwnedByYou" || code == "BucketAlreadyExists" {
			return nil // made meanwhile by another server
		}
		return fmt.Errorf("blob: make bucket %s: %w", s.Bucket, err)
	}
	return nil
}

func (s *S3) name(key string) string { return s.Prefix + key }

func notFound(err error) bool {
	code := minio.ToErrorResponse(err).Code
	return code == "NoSuchKey" || code == "NotFound"
}

// putMeta is the user metadata that dates a Put of bytes already stored:
// some servers (versitygw) keep an object's LastModified when it is copied
// onto itself.
const putMeta = "Quire-Put"

// written is when the object was last written or Put again.
func written(info minio.ObjectInfo) time.Time {
	t := info.LastModified
	for name, v := range info.UserMetadata {
		if strings.EqualFold(name, putMeta) {
			if put, err := time.Parse(time.RFC3339Nano, v); err == nil && put.After(t) {
				t = put
			}
		}
	}
	return t
}

// Put implements Store. A blob already there is copied onto itself with
// the time of this Put in its metadata, so that a collection leaves it
// alone for its grace period, as Dir does.
func (s *S3) Put(ctx context.Context, data []byte) (string, error) {
	key := Key(data)
	return key, s.put(ctx, key, bytes.NewReader(data), int64(len(data)))
}

// put stores the size bytes r reads under key, their hex SHA-256.
func (s *S3) put(ctx context.Context, key string, r io.Reader, size int64) error {
	name := s.name(key)
	if _, err := s.Client.StatObject(ctx, s.Bucket, name, minio.StatObjectOptions{}); err == nil {
		_, err = s.Client.CopyObject(ctx,
			minio.CopyDestOptions{Bucket: s.Bucket, Object: name, ReplaceMetadata: true,
				UserMetadata: map[string]string{putMeta: time.Now().UTC().Format(time.RFC3339Nano)}},
			minio.CopySrcOptions{Bucket: s.Bucket, Object: name})
		if err == nil {
			return nil
		}
		if !notFound(err) {
			return fmt.Errorf("blob: %w", err)
		}
		// Removed since: upload it anew.
	} else if !notFound(err) {
		return fmt.Errorf("blob: %w", err)
	}
	_, err := s.Client.PutObject(ctx, s.Bucket, name, r, size,
		minio.PutObjectOptions{PartSize: s.PartSize, ContentType: "application/octet-stream"})
	if err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	return nil
}

// Open implements Store. The reader fetches ranges as it is read and
// sought, so serving part of a large file reads only that part.
func (s *S3) Open(ctx context.Context, key string) (io.ReadSeekCloser, error) {
	if !validKey(key) {
		return nil, fs.ErrNotExist
	}
	obj, err := s.Client.GetObject(ctx, s.Bucket, s.name(key), minio.GetObjectOptions{})
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	if _, err := obj.Stat(); err != nil { // GetObject sends nothing until asked
		obj.Close()
		if notFound(err) {
			return nil, fs.ErrNotExist
		}
		return nil, fmt.Errorf("blob: %w", err)
	}
	return obj, nil
}

// Walk implements Collectable: it lists the objects under the prefix and
// aborts multipart uploads begun before before and never finished. The
// date given is the listing's LastModified, which may predate a later Put
// of the same bytes (see putMeta): RemoveOlder checks the later date.
func (s *S3) Walk(before time.Time, fn func(key string, modTime time.Time) error) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // stops the listing when fn fails
	for obj := range s.Client.ListObjects(ctx, s.Bucket, minio.ListObjectsOptions{Prefix: s.Prefix, Recursive: true}) {
		if obj.Err != nil {
			return fmt.Errorf("blob: %w", obj.Err)
		}
		key := strings.TrimPrefix(obj.Key, s.Prefix)
		if !validKey(key) {
			continue
		}
		if err := fn(key, obj.LastModified); err != nil {
			return err
		}
	}
	for up := range s.Client.ListIncompleteUploads(ctx, s.Bucket, s.Prefix, true) {
		if up.Err != nil {
			return fmt.Errorf("blob: %w", up.Err)
		}
		if up.Initiated.Before(before) && validKey(strings.TrimPrefix(up.Key, s.Prefix)) {
			rctx, rcancel := context.WithTimeout(ctx, s3Timeout)
			s.Client.RemoveIncompleteUpload(rctx, s.Bucket, up.Key)
			rcancel()
		}
	}
	return nil
}

// RemoveOlder implements Collectable. Unlike Dir's, it is not atomic: a Put
// of the same bytes between its check and its removal (a window of one
// round trip) is lost.
func (s *S3) RemoveOlder(key string, before time.Time) (bool, error) {
	if !validKey(key) {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), s3Timeout)
	defer cancel()
	info, err := s.Client.StatObject(ctx, s.Bucket, s.name(key), minio.StatObjectOptions{})
	if notFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("blob: %w", err)
	}
	if !written(info).Before(before) {
		return false, nil
	}
	if err := s.Client.RemoveObject(ctx, s.Bucket, s.name(key), minio.RemoveObjectOptions{}); err != nil {
		return false, fmt.Errorf("blob: %w", err)
	}
	return true, nil
}

// OpenStore opens the blob store a --blobs setting names: a folder path, or an
// s3:// URL (whose bucket is made when missing).
func OpenStore(ctx context.Context, setting string) (Collectable, error) {
	if !strings.HasPrefix(setting, "s3://") {
		return Dir{Path: setting}, nil
	}
	s, err := ParseS3URL(setting)
	if err != nil {
		return nil, err
	}
	if err := s.Prepare(ctx); err != nil {
		return nil, err
	}
	return s, nil
}
