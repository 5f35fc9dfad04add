-- The renewal and trial mails sent, once each: a row per order (the renewal order, or the trial's
-- order) and mail kind, written in the same transaction as the message it records, so replicas
-- and repeated sweeps queue each mail once. sent_at is business time: the daily reminder run
-- sends a point's mail only when it is later than the last mail about the order.
CREATE TABLE renewal_reminders (
  order_id TEXT NOT NULL REFERENCES orders(id),
  kind     TEXT NOT NULL,
  sent_at  TEXT NOT NULL,
  PRIMARY KEY (order_id, kind)
);
