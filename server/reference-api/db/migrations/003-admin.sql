-- Administration: user preferences, API users with their permissions, agent links and keys,
-- and an audit trail of administrative changes.

-- Per-user settings the portal keeps server-side (column choices, saved filters, dashboard
-- layouts…), one JSON value per key. They go with the user.
CREATE TABLE preferencias (
  id INTEGER PRIMARY KEY,
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  clave TEXT NOT NULL,
  valor TEXT NOT NULL,                 -- JSON text
  fecha_creacion TEXT NOT NULL,        -- ISO 8601 instant
  fecha_modificacion TEXT NOT NULL,    -- ISO 8601 instant
  UNIQUE (usuario_id, clave)
);

-- Machine clients (integrations) calling the API with a key instead of a user session. Global,
-- like portal users; their agent link is per brand (api_usuario_agentes).
CREATE TABLE api_usuarios (
  id INTEGER PRIMARY KEY,
  nombre TEXT NOT NULL UNIQUE COLLATE NOCASE,
  email TEXT NOT NULL,
  descripcion TEXT NOT NULL DEFAULT '',
  activo INTEGER NOT NULL DEFAULT 1,
  fecha_alta TEXT NOT NULL,            -- YYYY-MM-DD
  creado_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL
);

CREATE TABLE api_usuario_permisos (
  api_usuario_id INTEGER NOT NULL REFERENCES api_usuarios(id) ON DELETE CASCADE,
  permiso_id INTEGER NOT NULL REFERENCES permisos(id) ON DELETE CASCADE,
  PRIMARY KEY (api_usuario_id, permiso_id)
);

-- One agent ↔ one API user per brand: an API user has at most one agent in each brand, and an
-- agent (which belongs to one brand) is linked to at most one API user.
CREATE TABLE api_usuario_agentes (
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  api_usuario_id INTEGER NOT NULL REFERENCES api_usuarios(id) ON DELETE CASCADE,
  agente_id INTEGER NOT NULL UNIQUE REFERENCES agentes(id) ON DELETE CASCADE,
  fecha_alta TEXT NOT NULL,            -- ISO 8601 instant
  PRIMARY KEY (marca_id, api_usuario_id)
);

-- Keys of an API user. The full key `pk_<16 hex>.<43 base64url>` is shown once when generated;
-- only its public part (public_id, what `ApiKey` carries) and a SHA-256 of the secret are kept.
CREATE TABLE api_keys (
  id INTEGER PRIMARY KEY,
  api_usuario_id INTEGER NOT NULL REFERENCES api_usuarios(id) ON DELETE CASCADE,
  public_id TEXT NOT NULL UNIQUE,      -- pk_<16 hex>
  secret_hash TEXT NOT NULL,           -- hex SHA-256 of the secret part
  descripcion TEXT NOT NULL DEFAULT '',
  activa INTEGER NOT NULL DEFAULT 1,
  fecha_creacion TEXT NOT NULL,        -- ISO 8601 instant
  creada_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  ultimo_uso TEXT,                     -- ISO 8601 instant
  fecha_expiracion TEXT                -- ISO 8601 instant; NULL = no expiry
);
CREATE INDEX api_keys_usuario ON api_keys(api_usuario_id);

-- Who changed what in administration. No foreign keys: the trail outlives what it names.
CREATE TABLE auditoria_admin (
  id INTEGER PRIMARY KEY,
  fecha TEXT NOT NULL,                 -- ISO 8601 instant
  usuario_id INTEGER,                  -- who did it (NULL: the seed)
  usuario_email TEXT,
  accion TEXT NOT NULL,                -- e.g. usuario.alta, apikey.generada
  entidad TEXT NOT NULL,               -- usuario, grupo, permiso, api_usuario, api_key, preferencia
  entidad_id TEXT NOT NULL,
  detalle TEXT                         -- JSON
);
CREATE INDEX auditoria_admin_entidad ON auditoria_admin(entidad, entidad_id);
