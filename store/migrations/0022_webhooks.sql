-- Outgoing webhooks: an organization's subscriptions of an https URL to
-- events, optionally of one space. The signing secret is sealed (AES-GCM
-- under the server's secret key, the webhook id as additional data): the
-- server must sign with it, so it cannot be hashed.
CREATE TABLE webhooks (
    id              TEXT PRIMARY KEY,
    org_id          TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id        TEXT REFERENCES spaces (id) ON DELETE CASCADE, -- NULL: every space
    url             TEXT NOT NULL,
    events          TEXT NOT NULL,              -- JSON array of event names, "*" for all
    description     TEXT NOT NULL DEFAULT '',
    secret          TEXT NOT NULL,              -- sealed, base64
    active          BOOLEAN NOT NULL DEFAULT TRUE,
    disabled_reason TEXT NOT NULL DEFAULT '',   -- why it was turned off, when the worker did
    disabled_at     BIGINT,
    failures        BIGINT NOT NULL DEFAULT 0,  -- failed attempts in a row
    failing_since   BIGINT,                     -- the first of them
    created_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX webhooks_org ON webhooks (org_id, created_at, id);

-- The durable outbox: one row per event and webhook, written in the
-- transaction of the change that caused it. A delivery is pending while
-- next_attempt_at is set; a worker claims it with a lease (claim,
-- claimed_until). resource orders deliveries: a webhook's deliveries of one
-- resource go out in (created_at, seq) order, each after the one before is
-- delivered or given up.
CREATE TABLE webhook_deliveries (
    id              TEXT PRIMARY KEY,
    webhook_id      TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id        TEXT NOT NULL,
    event           TEXT NOT NULL,
    resource        TEXT NOT NULL,
    payload         TEXT NOT NULL,
    seq             BIGINT NOT NULL DEFAULT 0,  -- order among the events of one transaction
    status          TEXT NOT NULL,              -- pending, delivered, failed
    redelivery      BOOLEAN NOT NULL DEFAULT FALSE,
    attempts        BIGINT NOT NULL DEFAULT 0,
    created_at      BIGINT NOT NULL,
    next_attempt_at BIGINT,
    claim           TEXT,
    claimed_until   BIGINT,
    last_attempt_at BIGINT,
    response_status BIGINT NOT NULL DEFAULT 0,
    response_body   TEXT NOT NULL DEFAULT '',
    error           TEXT NOT NULL DEFAULT '',
    duration_ms     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX webhook_deliveries_list ON webhook_deliveries (webhook_id, created_at, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_order ON webhook_deliveries (webhook_id, resource, created_at, seq) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX webhook_deliveries_age ON webhook_deliveries (created_at) WHERE next_attempt_at IS NULL;
