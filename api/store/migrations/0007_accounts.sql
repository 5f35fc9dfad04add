-- Issue 12. A client's public id (usr_…, random): the only client id an answer shows, so ids
-- neither count clients nor invite guessing the next one. Clients made before it get one here;
-- new ones get account.NewPublicID's.
ALTER TABLE clients ADD COLUMN public_id TEXT NOT NULL DEFAULT '';
UPDATE clients SET public_id = 'usr_' || {{random_hex26}} WHERE public_id = '';
CREATE UNIQUE INDEX clients_public_id ON clients (public_id);

-- A password change ends the client's other sessions.
CREATE INDEX sessions_client ON sessions (client_id);

-- The reseller order's password is the reseller panel account's, never the shop sign-in's: its
-- bcrypt hash waits with the purchase until the account is created on the panel.
ALTER TABLE reseller_orders ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE panel_resellers ADD COLUMN password_hash TEXT NOT NULL DEFAULT '';
