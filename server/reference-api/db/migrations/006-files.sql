-- The file and folder area (spec §7 Files): a folder tree and files per brand. The root is
-- "no folder" (padre_id / carpeta_id NULL). Names are unique among siblings ignoring case:
-- nombre_clave is the name in NFC and lower case, computed by the API (SQLite's NOCASE only
-- folds ASCII). Timestamps are ISO `YYYY-MM-DDTHH:MM:SSZ` (UTC).

CREATE TABLE carpetas (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  padre_id INTEGER REFERENCES carpetas(id) ON DELETE CASCADE,
  nombre TEXT NOT NULL,
  nombre_clave TEXT NOT NULL,
  fecha TEXT NOT NULL,
  usuario_id INTEGER REFERENCES usuarios(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX carpetas_nombre ON carpetas(marca_id, coalesce(padre_id, 0), nombre_clave);
CREATE INDEX carpetas_padre ON carpetas(padre_id);

-- The bytes live on disk under DATA_DIR/archivos/<ruta>, named by ids (`<marca>/<id>`), never by
-- the uploaded name. Demo files (semilla = the key of their generated content) get their bytes,
-- size and SHA-256 when the API starts (written again whenever the file is missing on disk).
CREATE TABLE archivos (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  carpeta_id INTEGER REFERENCES carpetas(id) ON DELETE CASCADE,
  nombre TEXT NOT NULL,
  nombre_clave TEXT NOT NULL,
  extension TEXT NOT NULL,
  tipo_mime TEXT NOT NULL,
  tamano INTEGER,                      -- bytes; NULL only for a demo file not written yet
  sha256 TEXT,                         -- hex
  ruta TEXT,                           -- relative to DATA_DIR/archivos
  semilla TEXT,                        -- demo content key (NULL for uploads)
  fecha TEXT NOT NULL,                 -- upload instant
  usuario_id INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  usuario_nombre TEXT NOT NULL         -- who uploaded it, as shown (kept if the user is deleted); 'Sistema' for demo files
);
CREATE UNIQUE INDEX archivos_nombre ON archivos(marca_id, coalesce(carpeta_id, 0), nombre_clave);
CREATE INDEX archivos_carpeta ON archivos(carpeta_id);
