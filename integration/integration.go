// Package integration publishes integrations (contract §4.17): once a
// publish is validated (quire.PublishIntegration), it stores the bytes the
// publish carries (icon and preview images, decoded, and the script) in the
// blob store and seals the integration's secrets, then has the store keep
// the rest. Quire keeps what is published; it does not run scripts.
package integration

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/store"
)

// Publisher publishes integrations.
type Publisher struct {
	DB    *store.DB
	Blobs blob.Store
	// SecretKey (32 bytes) seals secrets with AES-256-GCM; when nil, a key
	// made on first use and kept in the database does.
	SecretKey []byte
}

// Publish publishes b, validated, as integration name of organization
// orgID: the first time version 1, then one more each time. Publishing
// replaces every field; secrets left out (or null) stay as they were, and
// {} removes them.
func (p *Publisher) Publish(ctx context.Context, b *quire.PublishIntegration, name, orgID string) (*quire.Integration, error) {
	in, err := p.integration(ctx, b, name, orgID)
	if err != nil {
		return nil, err
	}
	pub := store.IntegrationPublish{Integration: *in, BlockDomains: b.BlockDomains(), SetSecrets: b.Secrets.HasValue()}
	if pub.SetSecrets && len(b.Secrets.Value) > 0 {
		if pub.Secrets, err = p.seal(ctx, name, b.Secrets.Value); err != nil {
			return nil, err
		}
	}
	return p.DB.PublishIntegration(ctx, pub)
}

// integration is the integration b publishes as name for orgID, its icon,
// preview images and script decoded and stored. They are stored before the
// transaction, which must have no side effects; blobs are content-addressed,
// so a failed publish leaves at worst unreferenced bytes.
func (p *Publisher) integration(ctx context.Context, b *quire.PublishIntegration, name, orgID string) (*quire.Integration, error) {
	in := &quire.Integration{
		Name: name, OrgID: orgID, Title: *b.Title, Description: *b.Description, Summary: *b.Summary,
		Visibility: *b.Visibility, Target: *b.Target, Runtime: *b.Runtime, Scopes: *b.Scopes,
		Categories: b.Categories, Configurations: b.Configurations, ContentSecurityPolicy: b.ContentSecurityPolicy,
		PreviewImages: []quire.IntegrationAsset{},
	}
	var err error
	if b.Icon != nil {
		if in.Icon, err = p.storeImage(ctx, "icon", *b.Icon, quire.MaxIntegrationIconBytes); err != nil {
			return nil, err
		}
	}
	for i, b64 := range b.PreviewImages {
		a, err := p.storeImage(ctx, fmt.Sprintf("previewImages[%d]", i), b64, quire.MaxIntegrationPreviewBytes)
		if err != nil {
			return nil, err
		}
		in.PreviewImages = append(in.PreviewImages, *a)
	}
	if in.Script, err = p.Blobs.Put(ctx, []byte(*b.Script)); err != nil {
		return nil, fmt.Errorf("store script: %w", err)
	}
	for dst, v := range map[*json.RawMessage]any{&in.Blocks: nonNil(b.Blocks), &in.ContentSources: nonNil(b.ContentSources), &in.ExternalLinks: nonNil(b.ExternalLinks)} {
		if *dst, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return in, nil
}

func nonNil[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// storeImage decodes a base64 image and keeps it in the blob store.
func (p *Publisher) storeImage(ctx context.Context, field, b64 string, max int) (*quire.IntegrationAsset, error) {
	data, contentType, err := quire.DecodeImage(field, b64, max)
	if err != nil {
		return nil, err
	}
	key, err := p.Blobs.Put(ctx, data)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", field, err)
	}
	return &quire.IntegrationAsset{Blob: key, ContentType: contentType}, nil
}

// secretsKey names the server key that seals secrets when no key is
// configured (Publisher.SecretKey).
const secretsKey = "integration-secrets"

// sealedVersion starts every sealed secrets value: the format is version
// byte, 12-byte nonce, AES-256-GCM ciphertext and tag, with the
// integration's name as additional data so a value cannot move to another row.
const sealedVersion = 1

// seal encrypts an integration's secrets for the database.
func (p *Publisher) seal(ctx context.Context, name string, secrets map[string]string) ([]byte, error) {
	key, err := SecretsKey(ctx, p.DB, p.SecretKey)
	if err != nil {
		return nil, err
	}
	plain, err := json.Marshal(secrets)
	if err != nil {
		return nil, err
	}
	return Seal(key, plain, []byte(name))
}

// SecretsKey is the key that seals secrets: configured, the operator's
// (QUIRE_SECRET_KEY); else one the server makes and keeps in the database.
func SecretsKey(ctx context.Context, db *store.DB, configured []byte) ([]byte, error) {
	if configured != nil {
		return configured, nil
	}
	return db.ServerKey(ctx, secretsKey)
}

// Seal encrypts plain with key in the sealed format (sealedVersion), bound
// to ad: Open must be given the same ad, so a value cannot move to another
// row.
func Seal(key, plain, ad []byte) ([]byte, error) {
	gcm, err := sealer(key)
	if err != nil {
		return nil, err
	}
	return gcm.Seal([]byte{sealedVersion}, nil, plain, ad), nil // prepends a fresh random nonce
}

// Open decrypts a value Seal made with key and ad.
func Open(key, sealed, ad []byte) ([]byte, error) {
	gcm, err := sealer(key)
	if err != nil {
		return nil, err
	}
	if len(sealed) < 1 || sealed[0] != sealedVersion {
		return nil, errors.New("sealed value: unknown format")
	}
	plain, err := gcm.Open(nil, nil, sealed[1:], ad)
	if err != nil {
		return nil, fmt.Errorf("sealed value: %w", err)
	}
	return plain, nil
}

func sealer(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	return cipher.NewGCMWithRandomNonce(block)
}
