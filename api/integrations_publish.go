package api

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"fmt"

	"github.com/quiredocs/quire"
)

// What POST /integrations/{name} does with its body once validated
// (quire.PublishIntegration): its images and script stored, its secrets
// sealed. Contract §4.17.

// publishBody is the body of POST /integrations/{name}, read by
// readRequestLimit and checked by the domain's rules.
type publishBody quire.PublishIntegration

func (b *publishBody) validate() error { return (*quire.PublishIntegration)(b).Validate() }

// publishedIntegration is the integration b publishes as name for orgID, its icon,
// preview images and script decoded and stored. They are stored before the
// transaction, which must have no side effects; blobs are content-addressed,
// so a failed publish leaves at worst unreferenced bytes.
func (s *Server) publishedIntegration(ctx context.Context, b *quire.PublishIntegration, name, orgID string) (*quire.Integration, error) {
	in := &quire.Integration{
		Name: name, OrgID: orgID, Title: *b.Title, Description: *b.Description, Summary: *b.Summary,
		Visibility: *b.Visibility, Target: *b.Target, Runtime: *b.Runtime, Scopes: *b.Scopes,
		Categories: b.Categories, Configurations: b.Configurations, ContentSecurityPolicy: b.ContentSecurityPolicy,
		PreviewImages: []quire.IntegrationAsset{},
	}
	var err error
	if b.Icon != nil {
		if in.Icon, err = s.storeImage(ctx, "icon", *b.Icon, quire.MaxIntegrationIconBytes); err != nil {
			return nil, err
		}
	}
	for i, b64 := range b.PreviewImages {
		a, err := s.storeImage(ctx, fmt.Sprintf("previewImages[%d]", i), b64, quire.MaxIntegrationPreviewBytes)
		if err != nil {
			return nil, err
		}
		in.PreviewImages = append(in.PreviewImages, *a)
	}
	if in.Script, err = s.blobs.Put(ctx, []byte(*b.Script)); err != nil {
		return nil, fmt.Errorf("store script: %w", err)
	}
	for dst, v := range map[*json.RawMessage]any{&in.Blocks: nonNil(b.Blocks), &in.ContentSources: nonNil(b.ContentSources), &in.ExternalLinks: nonNil(b.ExternalLinks)} {
		if *dst, err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// integrationSecretsKey names the server key that seals secrets when no key
// is configured (Config.SecretKey).
const integrationSecretsKey = "integration-secrets"

// sealedSecretsVersion starts every sealed secrets value: the format is
// version byte, 12-byte nonce, AES-256-GCM ciphertext and tag, with the
// integration's name as additional data so a value cannot move to another row.
const sealedSecretsVersion = 1

// sealSecrets encrypts an integration's secrets for the database.
func (s *Server) sealSecrets(ctx context.Context, name string, secrets map[string]string) ([]byte, error) {
	key := s.secretKey
	if key == nil {
		var err error
		if key, err = s.db.ServerKey(ctx, integrationSecretsKey); err != nil {
			return nil, err
		}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret key: %w", err)
	}
	gcm, err := cipher.NewGCMWithRandomNonce(block) // prepends a fresh random nonce
	if err != nil {
		return nil, err
	}
	plain, err := json.Marshal(secrets)
	if err != nil {
		return nil, err
	}
	return gcm.Seal([]byte{sealedSecretsVersion}, nil, plain, []byte(name)), nil
}
