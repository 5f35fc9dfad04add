-- Issue 26. A refund made from the console's dialog carries the dialog's Idempotency-Key: the
-- same key on the same order answers the refund it made, so a double submission refunds once.
-- Keys are per order; refunds made without one (automatic, the CLI, before this) keep NULL,
-- which the unique index lets repeat.
ALTER TABLE order_refunds ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX order_refunds_key ON order_refunds (order_id, idempotency_key);

-- Why the fraud check held an order, written with the order: the checks that fired with their
-- values (JSON: [{"rule","value","limit"}]), the address it came from and how many orders that
-- address placed in the 24 h before. The console's held order shows it.
CREATE TABLE order_holds (
  order_id       TEXT PRIMARY KEY REFERENCES orders(id),
  rules          TEXT NOT NULL,
  ip             TEXT NOT NULL,
  orders_from_ip {{int}} NOT NULL,
  created_at     TEXT NOT NULL
);

-- Orders held before this migration: their address; which check fired was only logged.
INSERT INTO order_holds (order_id, rules, ip, orders_from_ip, created_at)
SELECT id, '[]', ip, 0, created_at FROM orders WHERE fraud = {{true}};
