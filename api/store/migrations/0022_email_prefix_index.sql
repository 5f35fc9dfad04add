-- The console finds an order by the beginning of its buyer's email (GET /admin/orders?q=).
-- PostgreSQL uses a plain index for that only under the C collation: the same index, with the
-- operator class that compares bytes, serves both the whole email and its beginnings (123 ms →
-- under 2 ms a page on 100,000 orders; docs/benchmarks.md). On SQLite it stays what it was.
DROP INDEX orders_email;
CREATE INDEX orders_email ON orders (email{{text_prefix}});
