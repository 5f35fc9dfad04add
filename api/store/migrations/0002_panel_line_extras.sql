-- A built-in panel line also keeps its bouquets (JSON array of ids) and its MAC address, so an
-- idempotent repeat of CreateLine returns the line exactly as first stored.
ALTER TABLE panel_lines ADD COLUMN bouquets TEXT NOT NULL DEFAULT '[]';
ALTER TABLE panel_lines ADD COLUMN mac TEXT NOT NULL DEFAULT '';
