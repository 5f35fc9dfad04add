-- Written once for both back ends: the words in double braces are expanded per dialect by
-- expandDDL (dialect.go), so SQLite and PostgreSQL always get the same tables and indexes.
-- Settings hold the signing key and the current catalog, so every replica reads the same ones.
CREATE TABLE settings (
  key        TEXT PRIMARY KEY,
  value      {{bytes}} NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE clients (
  id            {{id}},
  email         TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL DEFAULT '',
  created_at    TEXT NOT NULL
);

CREATE TABLE sessions (
  id         TEXT PRIMARY KEY,
  client_id  {{int}} NOT NULL REFERENCES clients(id),
  scope      TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT
);

CREATE TABLE orders (
  id              TEXT PRIMARY KEY,
  client_id       {{int}} NOT NULL REFERENCES clients(id),
  session_id      TEXT NOT NULL,
  email           TEXT NOT NULL,
  quote           TEXT NOT NULL,
  total_amount    {{int}} NOT NULL,
  currency        TEXT NOT NULL,
  status          TEXT NOT NULL,
  fraud           {{bool}} NOT NULL DEFAULT {{false}},
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
  client_id      {{int}} NOT NULL,
  amount         {{int}} NOT NULL,
  currency       TEXT NOT NULL,
  status         TEXT NOT NULL,
  gateway        TEXT NOT NULL,
  payment_url    TEXT NOT NULL DEFAULT '',
  deadline       TEXT NOT NULL DEFAULT '',
  transaction_id TEXT UNIQUE,
  paid_at        TEXT NOT NULL DEFAULT ''
);

CREATE TABLE services (
  {{rowid}}
  id              TEXT PRIMARY KEY,
  order_id        TEXT NOT NULL REFERENCES orders(id),
  client_id       {{int}} NOT NULL,
  session_id      TEXT NOT NULL,
  pid             {{int}} NOT NULL,
  name            TEXT NOT NULL,
  billing_cycle   TEXT NOT NULL,
  status          TEXT NOT NULL,
  trial           {{bool}} NOT NULL DEFAULT {{false}},
  username        TEXT NOT NULL DEFAULT '',
  password        TEXT NOT NULL DEFAULT '',
  server_hostname TEXT NOT NULL DEFAULT '',
  max_connections {{int}} NOT NULL,
  mac_address     TEXT NOT NULL DEFAULT '',
  expires_at      TEXT NOT NULL DEFAULT '',
  next_due_date   TEXT NOT NULL DEFAULT '',
  created_at      TEXT NOT NULL
);
CREATE INDEX services_order ON services (order_id);
CREATE INDEX services_client ON services (client_id);

-- Durable jobs: a row is leased by the worker that runs it; an expired lease is taken over.
CREATE TABLE jobs (
  id          {{id}},
  kind        TEXT NOT NULL,
  ref         TEXT NOT NULL,
  unique_key  TEXT NOT NULL UNIQUE,
  state       TEXT NOT NULL,
  attempts    {{int}} NOT NULL DEFAULT 0,
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
  max_connections {{int}} NOT NULL,
  expires_at      TEXT NOT NULL DEFAULT '',
  trial           {{bool}} NOT NULL DEFAULT {{false}},
  enabled         {{bool}} NOT NULL DEFAULT {{true}},
  created_at      TEXT NOT NULL
);
