-- Self sign-up withdrawal (issue 18): a pending sign-up nobody decided within its time is withdrawn
-- by whoever holds the token `POST api/auth/register` answered once (the portal keeps it, sealed,
-- with the held request). Only its SHA-256 is kept, and only while the account waits.
ALTER TABLE usuarios ADD COLUMN alta_retirada_hash TEXT;
