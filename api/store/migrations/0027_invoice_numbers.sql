-- Issue 25 scope 4. An invoice is numbered when it is paid, a refund issues a credit note: each
-- from one gapless counter per shop (its database or schema), a row of number_sequences that the
-- paying (refunding) transaction increments. The row's lock serialises concurrent payments on
-- every replica; a transaction that fails rolls its increment back, so no number is skipped or
-- given twice. number keeps the formatted number: a later change of the catalog's format never
-- renumbers what was issued.
CREATE TABLE number_sequences (
  name TEXT PRIMARY KEY,
  last {{int}} NOT NULL
);
INSERT INTO number_sequences (name, last) VALUES ('invoice', 0), ('credit_note', 0);

ALTER TABLE invoices ADD COLUMN number TEXT;
CREATE UNIQUE INDEX invoices_number ON invoices (number);

-- A credit note per refund (partial ones too), referring to the invoice it corrects.
CREATE TABLE credit_notes (
  id         TEXT PRIMARY KEY,
  number     TEXT NOT NULL UNIQUE,
  refund_id  TEXT NOT NULL UNIQUE,
  order_id   TEXT NOT NULL REFERENCES orders(id),
  invoice_id TEXT NOT NULL REFERENCES invoices(id),
  amount     {{int}} NOT NULL,
  currency   TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX credit_notes_order ON credit_notes (order_id);
