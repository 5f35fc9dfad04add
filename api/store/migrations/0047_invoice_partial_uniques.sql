-- Issue 24 point 4, the order path's CPU. An invoice is numbered and gets a transaction id only
-- once paid, yet the unique indexes on both held an entry for every unpaid invoice (NULL), so
-- each order wrote them for nothing. As partial indexes they hold paid invoices only and enforce
-- the same: no two invoices share a number or a transaction id (NULLs never collided). Every
-- lookup (number = ?, transaction_id = ?) implies IS NOT NULL, so both back ends still use them.
{{if postgres}}
DROP INDEX invoices_number;
CREATE UNIQUE INDEX invoices_number ON invoices (number) WHERE number IS NOT NULL;
ALTER TABLE invoices DROP CONSTRAINT invoices_transaction_id_key;
CREATE UNIQUE INDEX invoices_transaction_id ON invoices (transaction_id) WHERE transaction_id IS NOT NULL;
{{end}}

-- SQLite can drop transaction_id's UNIQUE column constraint only by rebuilding the table, which
-- the credit notes' foreign key allows only with foreign keys off (db.migrateForeignKeysOff; the
-- keys are checked before the commit). Rebuilt, the table is WITHOUT ROWID: its rows live in the
-- primary key's b-tree instead of a rowid table plus an index of their id (nothing reads an
-- invoice's rowid). So an order writes two b-trees of invoices instead of five (the table, its
-- id, order_id, transaction_id and number). The triggers that name invoices are made again
-- as 0028 made them.
{{if sqlite}}
-- streamcart: foreign keys off
DROP TRIGGER invoices_order_version;
DROP TRIGGER payment_quotes_order_version;
DROP TRIGGER external_refs_order_version;
CREATE TABLE invoices_rebuilt (
  id             TEXT PRIMARY KEY,
  order_id       TEXT NOT NULL UNIQUE REFERENCES orders(id),
  client_id      INTEGER NOT NULL,
  amount         INTEGER NOT NULL,
  currency       TEXT NOT NULL,
  status         TEXT NOT NULL,
  gateway        TEXT NOT NULL,
  payment_url    TEXT NOT NULL DEFAULT '',
  deadline       TEXT NOT NULL DEFAULT '',
  transaction_id TEXT,
  paid_at        TEXT NOT NULL DEFAULT '',
  number         TEXT
) WITHOUT ROWID;
INSERT INTO invoices_rebuilt (id, order_id, client_id, amount, currency, status, gateway, payment_url, deadline,
  transaction_id, paid_at, number)
  SELECT id, order_id, client_id, amount, currency, status, gateway, payment_url, deadline, transaction_id, paid_at, number
  FROM invoices;
DROP TABLE invoices;
ALTER TABLE invoices_rebuilt RENAME TO invoices;
CREATE UNIQUE INDEX invoices_number ON invoices (number) WHERE number IS NOT NULL;
CREATE UNIQUE INDEX invoices_transaction_id ON invoices (transaction_id) WHERE transaction_id IS NOT NULL;
CREATE TRIGGER invoices_order_version AFTER UPDATE OF status, number, payment_url, deadline, gateway ON invoices
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
