-- Payments to review (issue 24, finding 4): money that arrived but cannot settle its order (short,
-- over, another currency, or for an order that cannot take it) is a row the owner refunds or
-- accepts. state: review (to decide), refunded, accepted. expected_* is what the order asked.
-- reference is the transaction of a refund made by hand (crypto); decided_by/decided_at who
-- decided and when. refunding_at marks a provider refund under way (real time), so concurrent
-- refunds and accepts act once; a claim older than a few minutes is free again (a crash).
ALTER TABLE payment_reviews ADD COLUMN state TEXT NOT NULL DEFAULT 'review';
ALTER TABLE payment_reviews ADD COLUMN expected_amount {{int}} NOT NULL DEFAULT 0;
ALTER TABLE payment_reviews ADD COLUMN expected_currency TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_reviews ADD COLUMN reference TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_reviews ADD COLUMN decided_by TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_reviews ADD COLUMN decided_at TEXT NOT NULL DEFAULT '';
ALTER TABLE payment_reviews ADD COLUMN refunding_at TEXT NOT NULL DEFAULT '';
UPDATE payment_reviews SET state = 'refunded' WHERE refunded_at <> '';
-- Reasons become stable names (the API and the CLI show them).
UPDATE payment_reviews SET reason = 'cancelled' WHERE reason = 'order cancelled';
UPDATE payment_reviews SET reason = 'expired' WHERE reason = 'invoice expired';
UPDATE payment_reviews SET reason = 'held' WHERE reason = 'order held';
UPDATE payment_reviews SET reason = 'failed' WHERE reason = 'payment failed before';
UPDATE payment_reviews SET reason = 'already_paid' WHERE reason = 'invoice already paid';
UPDATE payment_reviews SET reason = 'in_review' WHERE reason = 'order already under review';
UPDATE payment_reviews SET reason = 'line_gone' WHERE reason = 'line not active';
UPDATE payment_reviews SET expected_amount = (SELECT amount FROM invoices WHERE invoices.id = payment_reviews.invoice_id),
  expected_currency = (SELECT currency FROM invoices WHERE invoices.id = payment_reviews.invoice_id)
  WHERE EXISTS (SELECT 1 FROM invoices WHERE invoices.id = payment_reviews.invoice_id);
CREATE INDEX payment_reviews_state ON payment_reviews (state, created_at);
