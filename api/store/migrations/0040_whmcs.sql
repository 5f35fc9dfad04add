-- Issue 27 (point 5): the WHMCS back end. Our ids never leave for WHMCS's: each of our clients,
-- orders (with their invoice) and services maps to the WHMCS record it stands for. A plan order is
-- placed in WHMCS once, by whoever claims its row (state placing, claimed_until a lease): a crash
-- leaves the claim to run out, and a replay of the order takes it over. A row dropped is an order
-- WHMCS could not take (unreachable, or another price): its order was deleted, nothing charged.
CREATE TABLE whmcs_clients (
  client_id  {{int}} PRIMARY KEY REFERENCES clients(id),
  whmcs_id   {{int}} NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE whmcs_orders (
  order_id      TEXT PRIMARY KEY,
  state         TEXT NOT NULL,
  claimed_until TEXT NOT NULL DEFAULT '',
  whmcs_client  {{int}} NOT NULL DEFAULT 0,
  whmcs_order   {{int}} NOT NULL DEFAULT 0,
  whmcs_invoice {{int}} NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);

CREATE TABLE whmcs_services (
  service_id TEXT PRIMARY KEY,
  order_id   TEXT NOT NULL,
  whmcs_id   {{int}} NOT NULL
);
CREATE INDEX whmcs_services_order ON whmcs_services (order_id);
