-- Issue 14. The seller's operators: a table of their own, never clients. An operator is pending
-- until its setup link set a password and a TOTP code proved the authenticator; disabled
-- operators keep their row (the audit log names them) but cannot sign in.
CREATE TABLE operators (
  id            {{id}},
  email         TEXT NOT NULL UNIQUE,
  role          TEXT NOT NULL,
  status        TEXT NOT NULL,
  password_hash TEXT NOT NULL DEFAULT '',
  totp_secret   TEXT NOT NULL DEFAULT '',
  -- The last TOTP time step accepted: a code works once, so one seen over a shoulder or in a
  -- proxy log cannot be replayed within its 30 seconds.
  totp_step     {{int}} NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  disabled_at   TEXT NOT NULL DEFAULT ''
);

-- One-time setup links (24 h): only a hash of the token is kept, like client sign-in links.
CREATE TABLE operator_setup_tokens (
  token_hash  TEXT PRIMARY KEY,
  operator_id {{int}} NOT NULL REFERENCES operators(id),
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  used_at     TEXT NOT NULL DEFAULT ''
);

-- Console sessions (12 h) by the hash of the cookie's token.
CREATE TABLE operator_sessions (
  id          TEXT PRIMARY KEY,
  operator_id {{int}} NOT NULL REFERENCES operators(id),
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  revoked_at  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX operator_sessions_operator ON operator_sessions (operator_id);

-- Every operator action is in the audit log with the operator ('' for a buyer's own action).
ALTER TABLE audit_log ADD COLUMN operator TEXT NOT NULL DEFAULT '';

-- The console's order list pages newest first and filters by status and email.
CREATE INDEX orders_created ON orders (created_at, id);
CREATE INDEX orders_status_created ON orders (status, created_at);
CREATE INDEX orders_email ON orders (email);
