-- API specifications (issue 19): whether a spec is public (PATCH
-- O/openapi/{specSlug}), and, for each processed version, where its
-- document came from and the document as JSON.
ALTER TABLE openapi_specs ADD COLUMN visibility TEXT NOT NULL DEFAULT 'private';
-- The URL the version was fetched from; NULL for a text source (and for
-- versions processed before this migration, whose source was not kept).
ALTER TABLE openapi_spec_versions ADD COLUMN source_url TEXT;
-- The document converted to JSON when it was given as YAML; NULL when the
-- document is JSON already (or was processed before this migration).
ALTER TABLE openapi_spec_versions ADD COLUMN json_document TEXT;
