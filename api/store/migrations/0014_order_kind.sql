-- What an order sells (plan, upsell, reseller), stored with it: its fulfilment is looked up by
-- kind instead of probed from the upsells and reseller_orders tables. Orders placed before are
-- given the kind those tables record for them.
ALTER TABLE orders ADD COLUMN kind TEXT NOT NULL DEFAULT 'plan';
UPDATE orders SET kind = 'upsell' WHERE id IN (SELECT order_id FROM upsells);
UPDATE orders SET kind = 'reseller' WHERE id IN (SELECT order_id FROM reseller_orders);
