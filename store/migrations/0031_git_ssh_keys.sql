-- Git sync over ssh (issue 17): each space's deploy key, made when first
-- needed (the private key sealed like other secrets), and the host keys its
-- ssh remotes showed first (trust on first use), by host:port.
CREATE TABLE git_deploy_keys (
    space_id       TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    public_key     TEXT NOT NULL,   -- authorized_keys line
    private_sealed TEXT NOT NULL,   -- base64 of the sealed OpenSSH private key
    created_at     BIGINT NOT NULL
);

CREATE TABLE git_host_keys (
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    host       TEXT NOT NULL,       -- host:port as dialed
    public_key TEXT NOT NULL,       -- authorized_keys format
    created_at BIGINT NOT NULL,
    PRIMARY KEY (space_id, host)
);
