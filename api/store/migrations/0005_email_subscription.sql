-- Newsletter consent from the checkout's box: when the client first gave it ('' never).
ALTER TABLE clients ADD COLUMN email_subscribed_at TEXT NOT NULL DEFAULT '';
