-- Issue 26: an audit entry keeps its detail in parts (a JSON array of strings, the wording
-- first, as console.AuditArgs describes), so that the console words it in its operator's
-- language instead of reading the English detail back. Rows written before keep NULL: their
-- parts are still read back from the detail where a wording is known.
ALTER TABLE audit_log ADD COLUMN args TEXT;
