-- Renewal orders: one per service and billing period, whatever the number of replicas sweeping
-- at once (the unique key). A row is reserved before its order is placed (order_id names it);
-- applied_at marks the period's due date moved, so a repeated fulfilment moves it once;
-- cycle_months is the period's length, counted from the payment date for a suspended line.
CREATE TABLE renewals (
  order_id     TEXT PRIMARY KEY,
  service_id   TEXT NOT NULL REFERENCES services(id),
  period_start TEXT NOT NULL,
  period_end   TEXT NOT NULL,
  cycle_months {{int}} NOT NULL,
  created_at   TEXT NOT NULL,
  applied_at   TEXT NOT NULL DEFAULT '',
  UNIQUE (service_id, period_start)
);
