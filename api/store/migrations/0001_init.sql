-- Settings hold the signing key and the current catalog, so every replica reads the same ones.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      BLOB NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE clients (
  id            INTEGER PRIMARY KEY,
  email         TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL DEFAULT '',
  created_at    TEXT NOT NULL
);

CREATE TABLE sessions (
  id         TEXT PRIMARY KEY,
  client_id  INTEGER NOT NULL REFERENCES clients(id),
  scope      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE orders (
  id              TEXT PRIMARY KEY,
  client_id       INTEGER NOT NULL REFERENCES clients(id),
  session_id      TEXT NOT NULL,
  email           TEXT NOT NULL,
  quote           TEXT NOT NULL,
  total_amount    INTEGER NOT NULL,
  currency        TEXT NOT NULL,
  status          TEXT NOT NULL,
  fraud           INTEGER NOT NULL DEFAULT 0,
  ip              TEXT NOT NULL,
  gateway         TEXT NOT NULL,
  affiliate_id    TEXT NOT NULL DEFAULT '',
  return_url      TEXT NOT NULL DEFAULT '',
  promo_code      TEXT NOT NULL DEFAULT '',
  idempotency_key TEXT,
  request_hash    TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  UNIQUE (client_id, idempotency_key)
);
CREATE INDEX orders_ip_created ON orders (ip, created_at);
CREATE INDEX orders_promo ON orders (promo_code) WHERE promo_code <> '';

CREATE TABLE invoices (
  id             TEXT PRIMARY KEY,
  order_id       TEXT NOT NULL UNIQUE REFERENCES orders(id),
  client_id      INTEGER NOT NULL,
  amount         INTEGER NOT NULL,
  currency       TEXT NOT NULL,
  status         TEXT NOT NULL,
  gateway        TEXT NOT NULL,
  payment_url    TEXT NOT NULL DEFAULT '',
  deadline       TEXT NOT NULL DEFAULT '',
  transaction_id TEXT UNIQUE,
  paid_at        TEXT NOT NULL DEFAULT ''
);

CREATE TABLE services (
  id              TEXT PRIMARY KEY,
  order_id        TEXT NOT NULL REFERENCES orders(id),
  client_id       INTEGER NOT NULL,
  session_id      TEXT NOT NULL,
  pid             INTEGER NOT NULL,
  name            TEXT NOT NULL,
  billing_cycle   TEXT NOT NULL,
  status          TEXT NOT NULL,
  trial           INTEGER NOT NULL DEFAULT 0,
  username        TEXT NOT NULL DEFAULT '',
  password        TEXT NOT NULL DEFAULT '',
  server_hostname TEXT NOT NULL DEFAULT '',
  max_connections INTEGER NOT NULL,
  mac_address     TEXT NOT NULL DEFAULT '',
  expires_at      TEXT NOT NULL DEFAULT '',
  next_due_date   TEXT NOT NULL DEFAULT '',
  created_at      TEXT NOT NULL
);
CREATE INDEX services_order ON services (order_id);
CREATE INDEX services_client ON services (client_id);

-- Durable jobs: a row is leased by the worker that runs it; an expired lease is taken over.
CREATE TABLE jobs (
  id          INTEGER PRIMARY KEY,
  kind        TEXT NOT NULL,
  ref         TEXT NOT NULL,
  unique_key  TEXT NOT NULL UNIQUE,
  state       TEXT NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0,
  run_at      TEXT NOT NULL,
  lease_until TEXT NOT NULL DEFAULT '',
  last_error  TEXT NOT NULL DEFAULT '',
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
CREATE INDEX jobs_due ON jobs (state, run_at);

-- The built-in panel's lines (the embedded default IPTV panel).
CREATE TABLE panel_lines (
  ref             TEXT PRIMARY KEY,
  username        TEXT NOT NULL UNIQUE,
  password        TEXT NOT NULL,
  max_connections INTEGER NOT NULL,
  expires_at      TEXT NOT NULL DEFAULT '',
  trial           INTEGER NOT NULL DEFAULT 0,
  enabled         INTEGER NOT NULL DEFAULT 1,
  created_at      TEXT NOT NULL
);
