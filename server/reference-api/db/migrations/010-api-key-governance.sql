-- API keys that can be governed: scopes, last-use address, rotation with an overlap window.
-- scopes: JSON array of scope names (schemas/business/api-scopes.ts); NULL only for keys made
-- before scopes existed, which lib/api-keys.ts backfills at start with every scope (they could
-- call everything).
ALTER TABLE api_keys ADD COLUMN scopes TEXT;
ALTER TABLE api_keys ADD COLUMN ultimo_uso_ip TEXT;
-- A rotated key keeps working until this instant (the overlap window), then stops.
ALTER TABLE api_keys ADD COLUMN rotada_hasta TEXT;
-- Public ids linking a rotated key and the key that replaced it (no FK: either may be deleted).
ALTER TABLE api_keys ADD COLUMN sustituida_por TEXT;
ALTER TABLE api_keys ADD COLUMN sustituye_a TEXT;
