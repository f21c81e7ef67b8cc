-- How many change requests each space has in each status, kept by the
-- database itself: a space is read with these counts on every request, and
-- counting a space's change requests grew with their number.
CREATE TABLE change_request_counts (
    space_id TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    status   TEXT NOT NULL,
    n        BIGINT NOT NULL,
    PRIMARY KEY (space_id, status)
);
INSERT INTO change_request_counts (space_id, status, n)
    SELECT space_id, status, COUNT(*) FROM change_requests GROUP BY space_id, status;

CREATE FUNCTION change_request_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        UPDATE change_request_counts SET n = n - 1 WHERE space_id = OLD.space_id AND status = OLD.status;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO change_request_counts (space_id, status, n) VALUES (NEW.space_id, NEW.status, 1)
            ON CONFLICT (space_id, status) DO UPDATE SET n = change_request_counts.n + 1;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER change_request_counts_insert_delete AFTER INSERT OR DELETE ON change_requests
    FOR EACH ROW EXECUTE FUNCTION change_request_count();
CREATE TRIGGER change_request_counts_update AFTER UPDATE OF space_id, status ON change_requests
    FOR EACH ROW WHEN (OLD.space_id <> NEW.space_id OR OLD.status <> NEW.status) EXECUTE FUNCTION change_request_count();
