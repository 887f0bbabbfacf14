-- Self sign-up (spec §7, issue 18): an account its owner created waits, inactive, until a
-- GESTORACCESS user of the brand it signed up in activates it. The brand is kept so that only
-- that brand's administrators see and decide it; NULL for every account an administrator made.
ALTER TABLE usuarios ADD COLUMN alta_pendiente_marca_id INTEGER REFERENCES marcas(id);
