-- Automatic card renewal (Stripe). renew_with_card is the buyer's consent given with the order
-- ("Renew automatically with this card"); service_cards keeps, per service, the customer and
-- payment method its paid order saved, which renewals are charged to off-session; renewal_charges
-- records each off-session attempt on a renewal order, one row per attempt point (its primary key
-- lets one of any number of replicas and repeated sweeps make the attempt).
ALTER TABLE orders ADD COLUMN renew_with_card {{bool}} NOT NULL DEFAULT {{false}};
CREATE TABLE service_cards (
  service_id     TEXT PRIMARY KEY REFERENCES services(id),
  provider       TEXT NOT NULL,
  customer       TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  order_id       TEXT NOT NULL,
  saved_at       TEXT NOT NULL
);
CREATE TABLE renewal_charges (
  order_id       TEXT NOT NULL,
  attempt        {{int}} NOT NULL,
  at             TEXT NOT NULL,
  outcome        TEXT NOT NULL,
  decline_code   TEXT NOT NULL DEFAULT '',
  payment_intent TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (order_id, attempt)
);
