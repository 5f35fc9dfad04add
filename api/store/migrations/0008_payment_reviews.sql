-- Payments that arrived for an order that cannot deliver them (cancelled, expired, held, already
-- paid, line gone): refunded automatically where the gateway can, else listed for the operator
-- (streamcart payments review). One row per provider transaction: a redelivery changes nothing.
CREATE TABLE payment_reviews (
  id             TEXT PRIMARY KEY,
  order_id       TEXT NOT NULL,
  invoice_id     TEXT NOT NULL,
  provider       TEXT NOT NULL,
  transaction_id TEXT NOT NULL UNIQUE,
  payment_ref    TEXT NOT NULL DEFAULT '',
  amount         {{int}} NOT NULL,
  currency       TEXT NOT NULL,
  reason         TEXT NOT NULL,
  refund_id      TEXT NOT NULL DEFAULT '',
  refunded_at    TEXT NOT NULL DEFAULT '',
  refund_error   TEXT NOT NULL DEFAULT '',
  created_at     TEXT NOT NULL
);
CREATE INDEX payment_reviews_created ON payment_reviews (created_at);
