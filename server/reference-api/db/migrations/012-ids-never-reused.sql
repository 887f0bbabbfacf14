-- A record's id is never given to another one (as an IDENTITY column never does): SQLite hands
-- out max(id) + 1, so deleting the newest user and creating one gave the new user the old id,
-- and the old user's audit history and links showed on the new one. The highest id ever
-- deleted is kept per table; inserts take the next id above it (lib/next-id.ts).
CREATE TABLE ids_retirados (
  tabla TEXT PRIMARY KEY,
  ultimo INTEGER NOT NULL
);

CREATE TRIGGER usuarios_id_retirado AFTER DELETE ON usuarios BEGIN
  INSERT OR REPLACE INTO ids_retirados (tabla, ultimo) VALUES ('usuarios', max(OLD.id, COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = 'usuarios'), 0)));
END;
CREATE TRIGGER grupos_id_retirado AFTER DELETE ON grupos BEGIN
  INSERT OR REPLACE INTO ids_retirados (tabla, ultimo) VALUES ('grupos', max(OLD.id, COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = 'grupos'), 0)));
END;
CREATE TRIGGER permisos_id_retirado AFTER DELETE ON permisos BEGIN
  INSERT OR REPLACE INTO ids_retirados (tabla, ultimo) VALUES ('permisos', max(OLD.id, COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = 'permisos'), 0)));
END;
CREATE TRIGGER api_usuarios_id_retirado AFTER DELETE ON api_usuarios BEGIN
  INSERT OR REPLACE INTO ids_retirados (tabla, ultimo) VALUES ('api_usuarios', max(OLD.id, COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = 'api_usuarios'), 0)));
END;
CREATE TRIGGER carpetas_id_retirado AFTER DELETE ON carpetas BEGIN
  INSERT OR REPLACE INTO ids_retirados (tabla, ultimo) VALUES ('carpetas', max(OLD.id, COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = 'carpetas'), 0)));
END;
CREATE TRIGGER archivos_id_retirado AFTER DELETE ON archivos BEGIN
  INSERT OR REPLACE INTO ids_retirados (tabla, ultimo) VALUES ('archivos', max(OLD.id, COALESCE((SELECT ultimo FROM ids_retirados WHERE tabla = 'archivos'), 0)));
END;
