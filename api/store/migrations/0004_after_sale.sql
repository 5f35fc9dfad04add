-- After the sale: sign-in links and throttling, the mail outbox, the audit log of service actions,
-- upsell and reseller orders, the built-in panel's reseller accounts and affiliate clicks.

-- One-time sign-in links: only a hash of the token is kept, so a database read signs nobody in.
CREATE TABLE signin_links (
  token_hash TEXT PRIMARY KEY,
  client_id  {{int}} NOT NULL REFERENCES clients(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at    TEXT NOT NULL DEFAULT ''
);
CREATE INDEX signin_links_client ON signin_links (client_id, created_at);

-- Sign-in attempts counted per scope and key (failed password per email, per IP; link requests
-- per IP): in the database, so every replica counts the same.
CREATE TABLE auth_attempts (
  id    {{id}},
  scope TEXT NOT NULL,
  key   TEXT NOT NULL,
  at    TEXT NOT NULL
);
CREATE INDEX auth_attempts_key ON auth_attempts (scope, key, at);

-- Outgoing mail: kept here by default (streamcart mail list), sent by a job when SMTP is set.
CREATE TABLE mail_outbox (
  id         {{id}},
  to_addr    TEXT NOT NULL,
  subject    TEXT NOT NULL,
  body       TEXT NOT NULL,
  status     TEXT NOT NULL,
  attempts   {{int}} NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL,
  sent_at    TEXT NOT NULL DEFAULT ''
);

-- Who did what to which service, when, and how it went.
CREATE TABLE audit_log (
  id         {{id}},
  client_id  {{int}} NOT NULL,
  session_id TEXT NOT NULL,
  action     TEXT NOT NULL,
  target     TEXT NOT NULL,
  result     TEXT NOT NULL,
  detail     TEXT NOT NULL DEFAULT '',
  at         TEXT NOT NULL
);
CREATE INDEX audit_log_target ON audit_log (target, at);

-- An upsell order raises one service's connections once: applied_at is set in the same
-- transaction that adds extra_quantity to the service.
CREATE TABLE upsells (
  order_id       TEXT PRIMARY KEY,
  service_id     TEXT NOT NULL,
  extra_quantity {{int}} NOT NULL,
  created_at     TEXT NOT NULL,
  applied_at     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX upsells_service ON upsells (service_id);

-- A reseller order credits the client's reseller account once it is paid.
CREATE TABLE reseller_orders (
  order_id    TEXT PRIMARY KEY,
  service_id  TEXT NOT NULL,
  client_id   {{int}} NOT NULL,
  session_id  TEXT NOT NULL,
  pid         {{int}} NOT NULL,
  credits     {{int}} NOT NULL,
  new_account {{bool}} NOT NULL DEFAULT {{false}},
  account     TEXT NOT NULL DEFAULT '',
  created_at  TEXT NOT NULL,
  credited_at TEXT NOT NULL DEFAULT ''
);
CREATE INDEX reseller_orders_client ON reseller_orders (client_id);

-- The built-in panel's reseller accounts, and each credit once by its ref (our order id).
CREATE TABLE panel_resellers (
  account    TEXT PRIMARY KEY,
  credits    {{int}} NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE panel_reseller_credits (
  ref        TEXT PRIMARY KEY,
  account    TEXT NOT NULL,
  credits    {{int}} NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE affiliate_clicks (
  id         {{id}},
  aff_id     TEXT NOT NULL,
  referer    TEXT NOT NULL DEFAULT '',
  ip         TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE INDEX affiliate_clicks_aff ON affiliate_clicks (aff_id, created_at);
CREATE INDEX orders_affiliate ON orders (affiliate_id) WHERE affiliate_id <> '';
