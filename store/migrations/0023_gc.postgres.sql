-- Garbage collection (store/gc.go). When each object was first stored, so
-- that a collection leaves young objects alone; revisions numbered in the
-- order they are written (under the content lock), to find those made while
-- a collection runs; and leases, so that one server at a time runs a job
-- such as the collector.
ALTER TABLE objects ADD COLUMN created_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE revisions ADD COLUMN seq BIGSERIAL;
CREATE INDEX revisions_seq ON revisions (seq);
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at BIGINT NOT NULL
);
