-- Each start of a sign-in counts the provider's pending requests.
CREATE INDEX saml_requests_provider ON saml_requests (provider_id);
