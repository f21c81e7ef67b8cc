-- Sessions of the web app. Only the SHA-256 of a session's id is kept, as
-- for API tokens, so a copy of the database signs no one in. A session ends
-- when it has been idle too long (last_seen_at) or at expires_at, whichever
-- comes first.
CREATE TABLE app_sessions (
    hash         TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL
);
CREATE INDEX app_sessions_user ON app_sessions (user_id);

-- One-time sign-in links (quire admin login-link), by their hash: each
-- signs in once, before it expires.
CREATE TABLE login_links (
    hash       TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at    BIGINT
);

-- What the user called a token they made in the app's tokens page.
ALTER TABLE api_tokens ADD COLUMN label TEXT NOT NULL DEFAULT '';
