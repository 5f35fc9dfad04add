-- Issue 24. Every free trial started, kept whatever its line becomes: the trial limits count
-- these (per client, per address per 30 days, per canonical e-mail address), so a trial
-- converted to a paid plan is still a trial had. Written with the trial's order, in its
-- transaction. email_key is the address's canonical form (order.CanonicalEmail): lower case, no
-- "+tag", and at Gmail (googlemail.com is gmail.com) no dots.
CREATE TABLE trial_starts (
  order_id   TEXT PRIMARY KEY REFERENCES orders(id),
  client_id  {{int}} NOT NULL,
  ip         TEXT NOT NULL,
  email_key  TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX trial_starts_client ON trial_starts (client_id);
CREATE INDEX trial_starts_ip ON trial_starts (ip, created_at);
CREATE INDEX trial_starts_email ON trial_starts (email_key);

-- The trials started before: the plan orders with a line still flagged trial, and the free ones
-- whose line was converted (a renewal applied, and a plan other than the one the order's quote,
-- whose JSON starts {"pid":N, names). Their e-mail addresses in the canonical form, step by step.
INSERT INTO trial_starts (order_id, client_id, ip, email_key, created_at)
WITH started AS (
  SELECT DISTINCT o.id, o.client_id, o.ip, lower(o.email) AS email, o.created_at
  FROM orders o JOIN services s ON s.order_id = o.id
  WHERE o.kind = 'plan' AND o.email LIKE '%@%' AND (s.trial = {{true}} OR (o.total_amount = 0
    AND o.quote NOT LIKE '{"pid":' || s.pid || ',%'
    AND EXISTS (SELECT 1 FROM renewals r WHERE r.service_id = s.id AND r.applied_at <> '')))
), split AS (
  SELECT id, client_id, ip, created_at, substr(email, 1, {{strpos}}(email, '@') - 1) AS local,
    substr(email, {{strpos}}(email, '@') + 1) AS domain
  FROM started
), tagless AS (
  SELECT id, client_id, ip, created_at,
    CASE WHEN {{strpos}}(local, '+') > 0 THEN substr(local, 1, {{strpos}}(local, '+') - 1) ELSE local END AS local,
    CASE WHEN domain = 'googlemail.com' THEN 'gmail.com' ELSE domain END AS domain
  FROM split
)
SELECT id, client_id, ip, CASE WHEN domain = 'gmail.com' THEN replace(local, '.', '') ELSE local END || '@' || domain, created_at
FROM tagless;

-- A renewal that converted a trial to a paid plan keeps the trial it was (its plan, name, cycle
-- and connections; its end is due_before), so a full refund of the conversion puts the line back
-- to that trial. trial_pid 0: no conversion (or one applied before this migration, which a refund
-- takes back as a renewal).
ALTER TABLE renewals ADD COLUMN trial_pid {{int}} NOT NULL DEFAULT 0;
ALTER TABLE renewals ADD COLUMN trial_name TEXT NOT NULL DEFAULT '';
ALTER TABLE renewals ADD COLUMN trial_cycle TEXT NOT NULL DEFAULT '';
ALTER TABLE renewals ADD COLUMN trial_connections {{int}} NOT NULL DEFAULT 0;
