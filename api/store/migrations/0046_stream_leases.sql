-- Issue 28: the order streams' per-session cap holds across replicas. Each open stream
-- (GET /orders/{id}/events) holds a row, renewed at its heartbeats; a replica that dies leaves
-- its rows to run out (until), after which they count no more and are dropped.
CREATE TABLE stream_leases (
  id      TEXT PRIMARY KEY,
  session TEXT NOT NULL,
  until   TEXT NOT NULL
);
CREATE INDEX stream_leases_session ON stream_leases (session);
CREATE INDEX stream_leases_until ON stream_leases (until);
