-- Replicas keep valid sessions in memory and poll for recent sign-outs (api/sessioncache).
CREATE INDEX sessions_revoked ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
