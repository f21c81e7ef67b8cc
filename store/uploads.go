package store

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"database/sql"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// Upload is a file uploaded to a signed URL for an organization, named by
// its key in later requests (an import's source files).
type Upload struct {
	Key         string
	OrgID       string
	CreatedBy   string
	Kind        string
	Name        string
	ContentType string
	Size        int64  // declared when made; the bytes' size once uploaded
	Blob        string // "" until the bytes have arrived
	URLExpires  time.Time
	Expires     time.Time
}

// Upload lifetimes: the URL takes bytes for UploadURLTTL; the key names
// them for UploadTTL.
const (
	UploadURLTTL = time.Hour
	UploadTTL    = 24 * time.Hour
)

// CreateUpload records an upload to come, u's Key and times set here, and
// returns it with the secret token its URL carries. Expired uploads are
// removed on the way.
func (db *DB) CreateUpload(ctx context.Context, u Upload) (*Upload, string, error) {
	token := rand.Text() + rand.Text()
	err := db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, "DELETE FROM storage_uploads WHERE expires_at <= ?", micros(tx.Now)); err != nil {
			return err
		}
		u.Key = "upload-" + newID()
		u.URLExpires, u.Expires = tx.Now.Add(UploadURLTTL), tx.Now.Add(UploadTTL)
		_, err := tx.q.exec(ctx, `INSERT INTO storage_uploads (key, token_hash, org_id, created_by, kind, name, content_type, size,
			created_at, url_expires_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			u.Key, hashToken(token), u.OrgID, u.CreatedBy, u.Kind, u.Name, u.ContentType, u.Size,
			micros(tx.Now), micros(u.URLExpires), micros(u.Expires))
		return err
	})
	if err != nil {
		return nil, "", err
	}
	return &u, token, nil
}

var errUploadURL = quire.Errorf(quire.CodeForbidden, "this upload URL is not valid: it has expired, was used, or was never made")

const uploadColumns = "key, org_id, created_by, kind, name, content_type, size, COALESCE(blob, ''), url_expires_at, expires_at"

func scanUpload(row *sql.Row) (*Upload, string, error) {
	var u Upload
	var hash string
	var urlExp, exp int64
	err := row.Scan(&u.Key, &u.OrgID, &u.CreatedBy, &u.Kind, &u.Name, &u.ContentType, &u.Size, &u.Blob, &urlExp, &exp, &hash)
	u.URLExpires, u.Expires = fromMicros(urlExp), fromMicros(exp)
	return &u, hash, err
}

// UploadForToken returns the upload of key whose URL carries token, while
// the URL is valid and no bytes have arrived; else CodeForbidden.
func (db *DB) UploadForToken(ctx context.Context, key, token string) (*Upload, error) {
	u, hash, err := scanUpload(db.q.queryRow(ctx, "SELECT "+uploadColumns+", token_hash FROM storage_uploads WHERE key = ?", key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errUploadURL
	}
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(hash), []byte(hashToken(token))) != 1 || u.Blob != "" || !time.Now().Before(u.URLExpires) {
		return nil, errUploadURL
	}
	return u, nil
}

// FinishUpload records the bytes of upload key, stored as blob: once only.
func (db *DB) FinishUpload(ctx context.Context, key, blob string, size int64) error {
	return db.Tx(ctx, func(tx *Tx) error {
		n, err := tx.q.affected(ctx, "UPDATE storage_uploads SET blob = ?, size = ? WHERE key = ? AND blob IS NULL AND url_expires_at > ?",
			blob, size, key, micros(tx.Now))
		if err == nil && n == 0 {
			err = errUploadURL
		}
		return err
	})
}

// UploadedFile returns the uploaded file of organization orgID named key:
// not found when it is another organization's, has expired, or has no
// bytes yet.
func (db *DB) UploadedFile(ctx context.Context, orgID, key string) (*Upload, error) {
	u, _, err := scanUpload(db.q.queryRow(ctx, "SELECT "+uploadColumns+", token_hash FROM storage_uploads WHERE key = ? AND org_id = ?", key, orgID))
	if errors.Is(err, sql.ErrNoRows) || err == nil && (u.Blob == "" || !time.Now().Before(u.Expires)) {
		return nil, quire.Errorf(quire.CodeNotFound, "no uploaded file %q", key)
	}
	return u, err
}
