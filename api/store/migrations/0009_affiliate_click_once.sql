-- An affiliate click counts once per address, affiliate and UTC day: day is the click's date
-- (YYYY-MM-DD). Clicks recorded before this migration keep day '' and stay counted as they were.
ALTER TABLE affiliate_clicks ADD COLUMN day TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX affiliate_clicks_once ON affiliate_clicks (aff_id, ip, day) WHERE day <> '';
