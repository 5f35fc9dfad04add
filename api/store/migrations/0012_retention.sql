-- Issue 16. The daily prune (store.Prune) finds what is past its retention through these, so it
-- reads only the rows it removes, not whole tables.
CREATE INDEX orders_idempotency_created ON orders (created_at) WHERE idempotency_key IS NOT NULL;
CREATE INDEX sessions_expires ON sessions (expires_at);
CREATE INDEX signin_links_expires ON signin_links (expires_at);
CREATE INDEX affiliate_clicks_created ON affiliate_clicks (created_at);
CREATE INDEX mail_outbox_sent ON mail_outbox (sent_at) WHERE status = 'sent';
CREATE INDEX jobs_finished ON jobs (updated_at) WHERE state IN ('done', 'cancelled');
CREATE INDEX auth_attempts_at ON auth_attempts (at);
