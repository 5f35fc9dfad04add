-- Issue 28: the built-in panel's reseller credit balance, the way XUI.one and Xtream UI
-- resellers hold one: making a line costs the product's credits for its cycle (catalog
-- `credits`), and a balance that cannot cover a plan makes the shop show it unavailable. One row
-- per panel; a fresh shop starts with 1000 credits so it sells at once (`streamcart panel
-- credits N` sets it, 0 tries the empty balance).
CREATE TABLE panel_credits (
  name    TEXT PRIMARY KEY,
  balance {{int}} NOT NULL
);
INSERT INTO panel_credits (name, balance) VALUES ('builtin', 1000);
