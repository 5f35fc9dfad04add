-- Issue 14. Refunds an operator makes from the console, one row each: part or all of an order's
-- paid invoice, through the gateway (reference = its refund id) or by hand (crypto, a note).
-- seq numbers an order's refunds; with the order's lock it keeps two concurrent refunds from
-- both taking the same money.
CREATE TABLE order_refunds (
  id         TEXT PRIMARY KEY,
  order_id   TEXT NOT NULL REFERENCES orders(id),
  seq        {{int}} NOT NULL,
  amount     {{int}} NOT NULL,
  currency   TEXT NOT NULL,
  method     TEXT NOT NULL,
  reference  TEXT NOT NULL DEFAULT '',
  reason     TEXT NOT NULL,
  note       TEXT NOT NULL DEFAULT '',
  operator   TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (order_id, seq)
);

-- Every catalog saved from the console (or imported), kept: the newest is the one in force.
CREATE TABLE catalog_versions (
  version    {{int}} PRIMARY KEY,
  source     TEXT NOT NULL,
  sha256     TEXT NOT NULL,
  operator   TEXT NOT NULL DEFAULT '',
  comment    TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);

CREATE INDEX audit_log_operator ON audit_log (operator, id);
