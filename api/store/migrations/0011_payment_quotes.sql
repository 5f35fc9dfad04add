-- What a gateway paid in another currency asks for an invoice (Coinbase Business: USDC on a
-- network) and the rate it was converted at: taken once, when the invoice's payment link is first
-- made, shown to the buyer and checked against the provider's webhook.
CREATE TABLE payment_quotes (
  invoice_id TEXT PRIMARY KEY,
  gateway    TEXT NOT NULL,
  amount     TEXT NOT NULL,
  currency   TEXT NOT NULL,
  network    TEXT NOT NULL DEFAULT '',
  rate       TEXT NOT NULL,
  basis      TEXT NOT NULL DEFAULT '',
  taken_at   TEXT NOT NULL
);
