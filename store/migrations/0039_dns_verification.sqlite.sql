-- Ownership proved by DNS (dnscheck): a TXT record at _quire.<name>, or,
-- for an e-mail domain, the operator's word (quire admin verify-domain).

-- The e-mail domains an organization proved it owns: its identity provider
-- signs in addresses there and nowhere else, and it manages (users.managed_by)
-- only accounts there.
CREATE TABLE verified_email_domains (
    org_id      TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    domain      TEXT NOT NULL,
    method      TEXT NOT NULL,   -- dns or operator
    verified_at BIGINT NOT NULL, -- microseconds
    PRIMARY KEY (org_id, domain)
);
CREATE INDEX verified_email_domains_by_domain ON verified_email_domains (domain);

-- When the site's custom hostname was last proved its own; NULL while it
-- is not (the published sites do not serve it then). A new hostname starts
-- NULL; the hostnames set before verification existed count as proved now,
-- so they are served for the grace period in which to add the record.
ALTER TABLE sites ADD COLUMN hostname_verified_at BIGINT;
UPDATE sites SET hostname_verified_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000000 WHERE hostname IS NOT NULL;
