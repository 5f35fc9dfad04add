-- Issue 24 point 4, the order path's CPU. An invoice is numbered and gets a transaction id only
-- once paid, yet the unique indexes on both held an entry for every unpaid invoice (NULL), so
-- each order wrote them twice for nothing. As partial indexes they hold paid invoices only and
-- enforce the same: no two invoices share a number or a transaction id (NULLs never collided).
-- Every lookup (number = ?, transaction_id = ?) implies IS NOT NULL, so both back ends still
-- use them.
DROP INDEX invoices_number;
CREATE UNIQUE INDEX invoices_number ON invoices (number) WHERE number IS NOT NULL;

-- transaction_id's UNIQUE is a column constraint: PostgreSQL drops it as such. SQLite can only
-- drop one by rebuilding the table, which the foreign keys on invoices (credit notes) forbid
-- inside a migration's transaction: there it stays as it was.
{{if postgres}}
ALTER TABLE invoices DROP CONSTRAINT invoices_transaction_id_key;
CREATE UNIQUE INDEX invoices_transaction_id ON invoices (transaction_id) WHERE transaction_id IS NOT NULL;
{{end}}
