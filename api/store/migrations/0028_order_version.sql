-- Issue 28 point 1, the order's live status (GET /orders/{id}/events): version counts the changes
-- of what GET /orders/{id} answers, so a stream's event id is monotonic per order and
-- Last-Event-ID resumes without repeating or missing a change. Triggers keep it, in the
-- transaction that makes the change: the order's status or fraud hold, its invoice (paid,
-- numbered, its payment link), a credit note, the gateway's quote, the payment seen and
-- confirming (external_refs scope payment:processing). On PostgreSQL each change also notifies
-- channel streamcart_orders with "<schema> <order id>", delivered to every replica's listener
-- when the transaction commits (api/store/listen.go).
ALTER TABLE orders ADD COLUMN version {{int}} NOT NULL DEFAULT 1;

{{if sqlite}}
CREATE TRIGGER orders_version AFTER UPDATE OF status, fraud ON orders
WHEN OLD.status IS NOT NEW.status OR OLD.fraud IS NOT NEW.fraud
BEGIN
  UPDATE orders SET version = version + 1 WHERE id = NEW.id;
END;
CREATE TRIGGER invoices_order_version AFTER UPDATE OF status, number, payment_url, deadline, gateway ON invoices
BEGIN
  UPDATE orders SET version = version + 1 WHERE id = NEW.order_id;
END;
CREATE TRIGGER credit_notes_order_version AFTER INSERT ON credit_notes
BEGIN
  UPDATE orders SET version = version + 1 WHERE id = NEW.order_id;
END;
CREATE TRIGGER payment_quotes_order_version AFTER INSERT ON payment_quotes
BEGIN
  UPDATE orders SET version = version + 1 WHERE id = (SELECT order_id FROM invoices WHERE id = NEW.invoice_id);
END;
CREATE TRIGGER external_refs_order_version AFTER INSERT ON external_refs
WHEN NEW.scope = 'payment:processing'
BEGIN
  UPDATE orders SET version = version + 1 WHERE id = (SELECT order_id FROM invoices WHERE id = NEW.key);
END;
{{end}}

{{if postgres}}
-- Every change of an order ends in this trigger: the version moves once per statement and the
-- replicas' listeners hear of it at commit (a notification repeated in one transaction is sent once).
CREATE FUNCTION order_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.version := OLD.version + 1;
  PERFORM pg_notify('streamcart_orders', current_schema() || ' ' || NEW.id);
  RETURN NEW;
END
$$;
CREATE TRIGGER orders_version BEFORE UPDATE OF status, fraud, version ON orders
FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.fraud IS DISTINCT FROM NEW.fraud OR OLD.version IS DISTINCT FROM NEW.version)
EXECUTE FUNCTION order_changed();

-- A part of the order changed: its order's version moves (through orders_version). TG_ARGV[0]
-- names the column holding the order's id, or the invoice's when TG_ARGV[1] is 'invoice'.
CREATE FUNCTION order_part_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ref text := to_jsonb(NEW) ->> TG_ARGV[0];
BEGIN
  IF TG_NARGS > 1 AND TG_ARGV[1] = 'invoice' THEN
    SELECT order_id INTO ref FROM invoices WHERE id = ref;
  END IF;
  UPDATE orders SET version = version + 1 WHERE id = ref;
  RETURN NULL;
END
$$;
CREATE TRIGGER invoices_order_version AFTER UPDATE OF status, number, payment_url, deadline, gateway ON invoices
FOR EACH ROW EXECUTE FUNCTION order_part_changed('order_id');
CREATE TRIGGER credit_notes_order_version AFTER INSERT ON credit_notes
FOR EACH ROW EXECUTE FUNCTION order_part_changed('order_id');
CREATE TRIGGER payment_quotes_order_version AFTER INSERT ON payment_quotes
FOR EACH ROW EXECUTE FUNCTION order_part_changed('invoice_id', 'invoice');
CREATE TRIGGER external_refs_order_version AFTER INSERT ON external_refs
FOR EACH ROW WHEN (NEW.scope = 'payment:processing') EXECUTE FUNCTION order_part_changed('key', 'invoice');
{{end}}
