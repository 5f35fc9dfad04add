-- Issue 24. A failed console sign-in is audited with the address it came from (finding 6); the
-- console's audit view filters by it.
ALTER TABLE audit_log ADD COLUMN ip TEXT NOT NULL DEFAULT '';
CREATE INDEX audit_log_ip ON audit_log (ip, id);

-- Every day a console extension gave a line, with when (real time) and whether the operator's
-- role is capped: support's extensions of one line are summed over 30 days (finding 10).
CREATE TABLE line_extensions (
  id         {{id}},
  service_id TEXT NOT NULL,
  operator   TEXT NOT NULL,
  capped     {{int}} NOT NULL,
  days       {{int}} NOT NULL,
  at         TEXT NOT NULL
);
CREATE INDEX line_extensions_service ON line_extensions (service_id, at);
