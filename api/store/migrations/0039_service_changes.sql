-- Changes of a line's terms at an operator's word (issue 26: POST /admin/services/{id}/change):
-- the terms before (from_*) and after (to_*), how it is charged (now, next-renewal, free), the
-- order the buyer pays for a charge-now change (order_id, kind 'change'), the prorated amount,
-- why and by whom. applied_at is set once the line has the new terms (at once, or when the order
-- is paid); reversed_at once a refunded change is taken back. idempotency_key (the operator's,
-- prefixed with the operator's email) makes one change per key.
CREATE TABLE service_changes (
  id               TEXT PRIMARY KEY,
  service_id       TEXT NOT NULL,
  order_id         TEXT NOT NULL DEFAULT '',
  charge           TEXT NOT NULL,
  from_pid         {{int}} NOT NULL,
  from_name        TEXT NOT NULL,
  from_cycle       TEXT NOT NULL,
  from_connections {{int}} NOT NULL,
  from_due         TEXT NOT NULL,
  to_pid           {{int}} NOT NULL,
  to_name          TEXT NOT NULL,
  to_cycle         TEXT NOT NULL,
  to_connections   {{int}} NOT NULL,
  to_due           TEXT NOT NULL,
  amount           {{int}} NOT NULL DEFAULT 0,
  currency         TEXT NOT NULL DEFAULT '',
  reason           TEXT NOT NULL,
  operator         TEXT NOT NULL,
  idempotency_key  TEXT NOT NULL DEFAULT '',
  request_hash     TEXT NOT NULL DEFAULT '',
  created_at       TEXT NOT NULL,
  applied_at       TEXT NOT NULL DEFAULT '',
  reversed_at      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX service_changes_service ON service_changes (service_id, created_at);
CREATE INDEX service_changes_order ON service_changes (order_id);
CREATE UNIQUE INDEX service_changes_key ON service_changes (idempotency_key) WHERE idempotency_key <> '';
