package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

// ServerKey returns the named signing key, creating a random 256-bit one on
// first use. Every server sharing the database gets the same key.
func (db *DB) ServerKey(ctx context.Context, name string) ([]byte, error) {
	var secret string
	err := db.Tx(ctx, func(tx *Tx) error {
		_, err := tx.q.exec(ctx, "INSERT INTO server_keys (name, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
			name, hex.EncodeToString(randomBytes(32)), micros(tx.Now))
		if err != nil {
			return err
		}
		return tx.q.queryRow(ctx, "SELECT secret FROM server_keys WHERE name = ?", name).Scan(&secret)
	})
	if err != nil {
		return nil, err
	}
	return hex.DecodeString(secret)
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}
