-- Requests counted by key (the SHA-256 of a token or client address, hex)
-- in fixed windows, so that servers sharing a PostgreSQL database share
-- their rate limits. Each server adds what it counted about once a second;
-- nothing else reads the table, and writes to it announce no change.
CREATE TABLE rate_limit_counts (
    key          TEXT NOT NULL,
    window_start BIGINT NOT NULL, -- Unix seconds
    count        BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL, -- Unix seconds: the window's end
    PRIMARY KEY (key, window_start)
);
CREATE INDEX rate_limit_counts_expiry ON rate_limit_counts (expires_at);
