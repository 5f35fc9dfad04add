-- A full refund from the console takes back what a renewal or an upsell gave its line (unless the
-- operator keeps the line). due_before and due_after are the service's due date before and after
-- a renewal was applied, so the refund moves it back by exactly what that renewal added (a row
-- applied before this migration: its period's start and end). reversed_at marks what a refund
-- took back, once; an upsell taken back before it was applied is never applied.
ALTER TABLE renewals ADD COLUMN due_before TEXT NOT NULL DEFAULT '';
ALTER TABLE renewals ADD COLUMN due_after TEXT NOT NULL DEFAULT '';
ALTER TABLE renewals ADD COLUMN reversed_at TEXT NOT NULL DEFAULT '';
ALTER TABLE upsells ADD COLUMN reversed_at TEXT NOT NULL DEFAULT '';
