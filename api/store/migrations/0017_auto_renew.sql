-- Auto-renew: a buyer who cancels it gets no more renewal invoices and the service becomes
-- Cancelled at its due date (services.auto_renew false); resuming before then sets it back.
ALTER TABLE services ADD COLUMN auto_renew {{bool}} NOT NULL DEFAULT {{true}};

-- A renewal can be cancelled (auto-renew cancelled, or replaced by the buyer's choice of another
-- billing cycle for the same period): cancelled_at marks it, and only the renewals not cancelled
-- are one per service and period. pid is the plan the period is bought for: the service's own,
-- or the paid plan a trial converts to; billing_cycle and name are the service's once the renewal
-- is applied ('' : unchanged). The table is rebuilt because SQLite cannot drop the
-- unique constraint it was created with.
CREATE TABLE renewals_v2 (
  order_id     TEXT PRIMARY KEY,
  service_id   TEXT NOT NULL REFERENCES services(id),
  period_start TEXT NOT NULL,
  period_end   TEXT NOT NULL,
  cycle_months {{int}} NOT NULL,
  created_at   TEXT NOT NULL,
  applied_at   TEXT NOT NULL DEFAULT '',
  cancelled_at TEXT NOT NULL DEFAULT '',
  pid           {{int}} NOT NULL DEFAULT 0,
  billing_cycle TEXT NOT NULL DEFAULT '',
  name          TEXT NOT NULL DEFAULT ''
);
INSERT INTO renewals_v2 (order_id, service_id, period_start, period_end, cycle_months, created_at, applied_at)
  SELECT order_id, service_id, period_start, period_end, cycle_months, created_at, applied_at FROM renewals;
DROP TABLE renewals;
ALTER TABLE renewals_v2 RENAME TO renewals;
CREATE UNIQUE INDEX renewals_one_per_period ON renewals (service_id, period_start) WHERE cancelled_at = '';
CREATE INDEX renewals_service ON renewals (service_id, period_start);
