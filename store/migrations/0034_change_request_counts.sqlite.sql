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

CREATE TRIGGER change_request_counts_insert AFTER INSERT ON change_requests BEGIN
    INSERT INTO change_request_counts (space_id, status, n) VALUES (new.space_id, new.status, 1)
        ON CONFLICT (space_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER change_request_counts_delete AFTER DELETE ON change_requests BEGIN
    UPDATE change_request_counts SET n = n - 1 WHERE space_id = old.space_id AND status = old.status;
END;
CREATE TRIGGER change_request_counts_update AFTER UPDATE OF space_id, status ON change_requests
    WHEN old.space_id <> new.space_id OR old.status <> new.status BEGIN
    UPDATE change_request_counts SET n = n - 1 WHERE space_id = old.space_id AND status = old.status;
    INSERT INTO change_request_counts (space_id, status, n) VALUES (new.space_id, new.status, 1)
        ON CONFLICT (space_id, status) DO UPDATE SET n = n + 1;
END;
