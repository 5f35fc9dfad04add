-- Issue 27: upgrades of one WHMCS service are placed one at a time. UpgradeProduct takes no
-- reference of ours, so the upgrade an unanswered call made is found again by the service it
-- upgrades (a pending upgrade order held by none of our orders). A placing of an upsell, and the
-- job cancelling a lost one, hold the service's lease from before they ask WHMCS until the
-- upgrade they made or took over is recorded as ours, so neither can take over or cancel an
-- upgrade another placing of the same service has in flight. A holder that dies leaves its lease
-- to run out (until).
CREATE TABLE whmcs_upgrade_leases (
  whmcs_service {{int}} PRIMARY KEY,
  holder        TEXT NOT NULL,
  until         TEXT NOT NULL
);
