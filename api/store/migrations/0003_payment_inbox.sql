-- Payment webhooks are stored verified and raw before anything acts on them: a crash after the
-- 2xx answer only delays processing, and (provider, event_id) makes a provider's retry a no-op.
CREATE TABLE webhooks (
  id           {{id}},
  provider     TEXT NOT NULL,
  event_id     TEXT NOT NULL,
  body         {{bytes}} NOT NULL,
  received_at  TEXT NOT NULL,
  processed_at TEXT NOT NULL DEFAULT '',
  outcome      TEXT NOT NULL DEFAULT '',
  UNIQUE (provider, event_id)
);

-- What an outside system calls one of ours: a gateway's checkout session or charge for an
-- invoice (to ask about it when reconciling), a remote panel's line id for a service.
CREATE TABLE external_refs (
  scope      TEXT NOT NULL,
  key        TEXT NOT NULL,
  ref        TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);
