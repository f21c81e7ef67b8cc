-- A change request's description, as markdown, the way pages' bodies are
-- stored; '' for none. The API answers it as a JSON document.
ALTER TABLE change_requests ADD COLUMN description TEXT NOT NULL DEFAULT '';
