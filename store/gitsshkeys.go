package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"time"

	"github.com/quiredocs/quire"
)

// Git sync over ssh (see migration 0031): a space's deploy key, and the
// host keys its ssh remotes were first seen with.

// GitDeployKey is a space's ssh key pair; the private key is sealed.
type GitDeployKey struct {
	SpaceID       string
	PublicKey     string // authorized_keys line
	PrivateSealed []byte
	CreatedAt     time.Time
}

// GitDeployKey returns a space's deploy key; CodeNotFound when it has none.
func (r reader) GitDeployKey(ctx context.Context, spaceID string) (*GitDeployKey, error) {
	k := GitDeployKey{SpaceID: spaceID}
	var sealed string
	var created int64
	err := r.q.queryRow(ctx, "SELECT public_key, private_sealed, created_at FROM git_deploy_keys WHERE space_id = ?", spaceID).
		Scan(&k.PublicKey, &sealed, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, quire.Errorf(quire.CodeNotFound, "the space has no deploy key")
	}
	if err != nil {
		return nil, err
	}
	if k.PrivateSealed, err = base64.StdEncoding.DecodeString(sealed); err != nil {
		return nil, err
	}
	k.CreatedAt = fromMicros(created)
	return &k, nil
}

// SetGitDeployKey stores a space's deploy key. With replace it takes the
// place of the one there (a new key); without, a key already there is kept
// (two servers making the first key at once agree on one). It returns the
// key the space has now.
func (db *DB) SetGitDeployKey(ctx context.Context, spaceID, publicKey string, privateSealed []byte, replace bool) (k *GitDeployKey, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		conflict := " ON CONFLICT (space_id) DO NOTHING"
		if replace {
			conflict = " ON CONFLICT (space_id) DO UPDATE SET public_key = excluded.public_key, private_sealed = excluded.private_sealed, created_at = excluded.created_at"
		}
		if _, err := tx.q.exec(ctx, "INSERT INTO git_deploy_keys (space_id, public_key, private_sealed, created_at) VALUES (?, ?, ?, ?)"+conflict,
			spaceID, publicKey, base64.StdEncoding.EncodeToString(privateSealed), micros(tx.Now)); err != nil {
			return err
		}
		k, err = tx.GitDeployKey(ctx, spaceID)
		return err
	})
	return k, err
}

// TrustGitHostKey records key as the host key of host (host:port) for a
// space unless one is recorded already, and returns the one recorded:
// the first key seen is trusted, later ones must be it.
func (db *DB) TrustGitHostKey(ctx context.Context, spaceID, host, key string) (trusted string, err error) {
	err = db.Tx(ctx, func(tx *Tx) error {
		if _, err := tx.q.exec(ctx, `INSERT INTO git_host_keys (space_id, host, public_key, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (space_id, host) DO NOTHING`, spaceID, host, key, micros(tx.Now)); err != nil {
			return err
		}
		return tx.q.queryRow(ctx, "SELECT public_key FROM git_host_keys WHERE space_id = ? AND host = ?", spaceID, host).Scan(&trusted)
	})
	return trusted, err
}

// GitHostKey returns the host key recorded for host (host:port) for a
// space; "" when none is.
func (r reader) GitHostKey(ctx context.Context, spaceID, host string) (string, error) {
	var key string
	err := r.q.queryRow(ctx, "SELECT public_key FROM git_host_keys WHERE space_id = ? AND host = ?", spaceID, host).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return key, err
}
