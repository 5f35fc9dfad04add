-- Mail in the buyer's language: an order keeps the locale it was placed in ('' for orders placed
-- before, which get English), and the outbox keeps each message's HTML part beside its text.
ALTER TABLE orders ADD COLUMN locale TEXT NOT NULL DEFAULT '';
ALTER TABLE mail_outbox ADD COLUMN html TEXT NOT NULL DEFAULT '';
