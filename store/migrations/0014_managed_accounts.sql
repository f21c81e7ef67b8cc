-- An account that an organization's single sign-on created, or signed in
-- while it belonged to that organization alone, is managed by it: no other
-- organization can add it, and it goes with the organization.
ALTER TABLE users ADD COLUMN managed_by TEXT REFERENCES organizations (id) ON DELETE CASCADE;

-- saml_requests now holds the AuthnRequests already answered, until they
-- expire; a pending sign-in lives in the browser's signed cookie instead of
-- a shared table that anyone could fill.
DELETE FROM saml_requests;
DROP INDEX saml_requests_provider;
