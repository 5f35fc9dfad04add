-- Issue 28: the reconciliation of the panel with what was paid. Each drift found (a line deleted,
-- disabled, shortened … on the panel) and what was done about it is kept for the console's "Line
-- drift" view and streamcart_line_drift_total; an unexplained panel line is recorded once.
CREATE TABLE line_drift (
  id         {{id}},
  run_id     TEXT NOT NULL,
  service_id TEXT NOT NULL,
  username   TEXT NOT NULL,
  kind       TEXT NOT NULL,
  want       TEXT NOT NULL,
  found      TEXT NOT NULL,
  action     TEXT NOT NULL,
  error      TEXT NOT NULL DEFAULT '',
  at         TEXT NOT NULL
);
CREATE INDEX line_drift_kind_username ON line_drift (kind, username);

-- Named leases held by one process at a time across replicas (the reconciliation: one run at a
-- time). A holder that dies leaves its lease to run out.
CREATE TABLE run_leases (
  name   TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  until  TEXT NOT NULL
);
