package main

import (
	"log/slog"

	"github.com/quiredocs/quire/jobs"
	"github.com/quiredocs/quire/outbound"
	"github.com/quiredocs/quire/store"
	"github.com/quiredocs/quire/webhook"
)

// webhookDeliverer is the worker that sends the webhook deliveries of db,
// sealed with the same key as the API seals them.
func webhookDeliverer(db *store.DB, cfg Config, log *slog.Logger) *jobs.Deliverer {
	secretKey, _ := cfg.secretKey() // checked before the API was made
	return &jobs.Deliverer{DB: db, Sealer: &webhook.Sealer{DB: db, Key: secretKey},
		Fetcher: outbound.Fetcher{AllowPrivate: cfg.AllowPrivateFetch}, Log: log}
}

// revalidator is the worker that makes the sites' renderer revalidation
// calls, their secrets sealed with the same key as the API seals them; it
// reaches private addresses (and http URLs) only when fetches may.
func revalidator(db *store.DB, cfg Config, log *slog.Logger) *jobs.Revalidator {
	secretKey, _ := cfg.secretKey() // checked before the API was made
	return &jobs.Revalidator{DB: db, Sealer: &webhook.Sealer{DB: db, Key: secretKey},
		Fetcher: outbound.Fetcher{AllowPrivate: cfg.AllowPrivateFetch}, Log: log}
}
