-- Issue 25 scope 5: tax. An order placed while the catalog has a tax block keeps where its buyer
-- is, as two pieces of evidence (the billing country they gave or confirmed, and their IP
-- address's country; country_confirmed when the two differ and the buyer confirmed), and the
-- tax it was charged: the country and rate applied, the tax and the net in minor units of the
-- order's currency (total_amount is the gross). All NULL for an order without tax, as for every
-- order placed before. A credit note keeps the tax it gives back (the invoice's in proportion)
-- and its net: 0 for an order without tax. The tax report (streamcart tax report) sums these.
ALTER TABLE orders ADD COLUMN billing_country TEXT;
ALTER TABLE orders ADD COLUMN ip_country TEXT;
ALTER TABLE orders ADD COLUMN country_confirmed {{bool}} NOT NULL DEFAULT {{false}};
ALTER TABLE orders ADD COLUMN tax_country TEXT;
ALTER TABLE orders ADD COLUMN tax_rate TEXT;
ALTER TABLE orders ADD COLUMN tax_amount {{int}};
ALTER TABLE orders ADD COLUMN net_amount {{int}};
ALTER TABLE credit_notes ADD COLUMN tax_amount {{int}} NOT NULL DEFAULT 0;
ALTER TABLE credit_notes ADD COLUMN net_amount {{int}} NOT NULL DEFAULT 0;
