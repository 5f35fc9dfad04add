-- Issue 26 point 9: the order's and customer's dates read business time. The outbox, the
-- webhook inbox and the job queue stamp their rows in real time (their retries, leases and
-- retention are measured on it), so the console translates a real stamp into business time by
-- the test clock's offset in force when the row was written. Each move of the test clock
-- (`streamcart clock advance|reset`) is kept here: the real time it took effect and the offset
-- from then on (a Go duration, as the setting). The offset in force now, if any, is the first
-- move (dated by the setting's own real-time stamp).
CREATE TABLE test_clock_moves (
  id           {{id}},
  at           TEXT NOT NULL,
  clock_offset {{bytes}} NOT NULL
);
CREATE INDEX test_clock_moves_at ON test_clock_moves (at);
INSERT INTO test_clock_moves (at, clock_offset)
  SELECT updated_at, value FROM settings WHERE key = 'test_clock_offset';

-- The lines of orders cancelled before (expired unpaid, cancelled) were left Pending: they
-- are Cancelled as a cancelled order's lines are from now on (setOrderStatus).
UPDATE services SET status = 'Cancelled'
  WHERE status = 'Pending' AND order_id IN (SELECT id FROM orders WHERE status = 'cancelled');
