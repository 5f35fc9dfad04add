-- Issue 27: a WHMCS order's reference. AddOrder writes Streamcart's reference of the order in the
-- service's domain field (free text on an IPTV product), so an AddOrder whose answer was lost is
-- found again (GetClientsProducts by client and domain) instead of placed twice: a replay of the
-- order (its Idempotency-Key) takes that WHMCS order over, and a job cancels one nobody takes.
-- The reference is the same for every replay of one order (a digest of the client and the key).
ALTER TABLE whmcs_orders ADD COLUMN ref TEXT NOT NULL DEFAULT '';
CREATE INDEX whmcs_orders_ref ON whmcs_orders (ref);
CREATE INDEX whmcs_orders_whmcs_order ON whmcs_orders (whmcs_order);
