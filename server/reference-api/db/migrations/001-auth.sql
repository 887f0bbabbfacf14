-- Brands (companies) the reference API serves, identified by the X-Brand-Domain header.
CREATE TABLE marcas (
  id INTEGER PRIMARY KEY,
  dominio TEXT NOT NULL UNIQUE,
  nombre TEXT NOT NULL
);

CREATE TABLE usuarios (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  nombre TEXT NOT NULL,
  apellidos TEXT NOT NULL DEFAULT '',
  telefono TEXT,
  password_hash TEXT NOT NULL,
  activo INTEGER NOT NULL DEFAULT 1,
  fecha_alta TEXT NOT NULL,
  ultimo_acceso TEXT
);

CREATE TABLE permisos (
  id INTEGER PRIMARY KEY,
  nombre TEXT NOT NULL,
  nombre_normalizado TEXT NOT NULL UNIQUE,
  descripcion TEXT NOT NULL DEFAULT ''
);

CREATE TABLE grupos (
  id INTEGER PRIMARY KEY,
  nombre TEXT NOT NULL UNIQUE COLLATE NOCASE,
  descripcion TEXT NOT NULL DEFAULT ''
);

CREATE TABLE usuario_permisos (
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  permiso_id INTEGER NOT NULL REFERENCES permisos(id) ON DELETE CASCADE,
  PRIMARY KEY (usuario_id, permiso_id)
);

CREATE TABLE grupo_permisos (
  grupo_id INTEGER NOT NULL REFERENCES grupos(id) ON DELETE CASCADE,
  permiso_id INTEGER NOT NULL REFERENCES permisos(id) ON DELETE CASCADE,
  PRIMARY KEY (grupo_id, permiso_id)
);

CREATE TABLE usuario_grupos (
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  grupo_id INTEGER NOT NULL REFERENCES grupos(id) ON DELETE CASCADE,
  PRIMARY KEY (usuario_id, grupo_id)
);

CREATE TABLE refresh_tokens (
  jti TEXT PRIMARY KEY,
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  issued_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER,
  replaced_by TEXT,
  replaced_at INTEGER
);
CREATE INDEX refresh_tokens_user ON refresh_tokens(usuario_id);

CREATE TABLE password_resets (
  id INTEGER PRIMARY KEY,
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

-- Sales agents of a brand, in a hierarchy (padre_id), optionally linked to one portal user.
CREATE TABLE agentes (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  codigo TEXT NOT NULL,
  nombre TEXT NOT NULL,
  nif TEXT NOT NULL,
  email TEXT NOT NULL,
  telefono TEXT NOT NULL,
  provincia_id INTEGER,
  padre_id INTEGER REFERENCES agentes(id),
  nivel INTEGER NOT NULL,
  usuario_id INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  tipo_comision_id INTEGER,
  activo INTEGER NOT NULL DEFAULT 1,
  fecha_alta TEXT NOT NULL,
  UNIQUE (marca_id, codigo)
);
CREATE INDEX agentes_marca ON agentes(marca_id);
CREATE INDEX agentes_padre ON agentes(padre_id);
CREATE UNIQUE INDEX agentes_usuario ON agentes(marca_id, usuario_id) WHERE usuario_id IS NOT NULL;
