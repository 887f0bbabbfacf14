-- The tools (README: Baterías, Comparador): the battery catalogue, saved battery calculations
-- and saved comparisons. Saved items belong to a user and a brand (usuario_id, marca_id) and
-- are deleted with the user. JSON columns hold the request and answer as sent.

-- Home batteries offered by the battery calculator (the same catalogue in every brand).
-- precio_eur: installed price, VAT included (the CAPEX of the savings model).
CREATE TABLE baterias (
  id INTEGER PRIMARY KEY,
  modelo TEXT NOT NULL,
  fabricante TEXT NOT NULL,
  capacidad_util_kwh REAL NOT NULL CHECK (capacidad_util_kwh > 0),
  -- round-trip efficiency, 0–1
  eficiencia REAL NOT NULL CHECK (eficiencia > 0 AND eficiencia <= 1),
  -- average daily fill (share of the usable capacity charged on an average day), 0–1
  llenado_medio REAL NOT NULL CHECK (llenado_medio > 0 AND llenado_medio <= 1),
  precio_eur REAL NOT NULL CHECK (precio_eur > 0),
  garantia_anios INTEGER NOT NULL CHECK (garantia_anios > 0),
  activa INTEGER NOT NULL DEFAULT 1 CHECK (activa IN (0, 1))
);

-- `POST /api/bateria/savedata`: a named calculation (its input and, optionally, its result).
CREATE TABLE bateria_calculos (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  nombre TEXT NOT NULL,
  calculo TEXT NOT NULL,
  resultado TEXT,
  fecha TEXT NOT NULL
);
CREATE INDEX bateria_calculos_usuario ON bateria_calculos(usuario_id, marca_id, fecha);

-- `POST /api/comparador/comparativa` with `Guardar: true`. The list's columns are kept as
-- columns (sorting, filtering); `entrada` and `resultado` are the whole input and answer.
CREATE TABLE comparativas (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  usuario_id INTEGER NOT NULL REFERENCES usuarios(id) ON DELETE CASCADE,
  nombre TEXT NOT NULL,
  cliente TEXT,
  tarifa_id INTEGER NOT NULL,
  importe_actual_eur REAL NOT NULL,
  mejor_oferta TEXT NOT NULL CHECK (mejor_oferta IN ('fijo', 'indexado')),
  ahorro_anual_eur REAL NOT NULL,
  ahorro_pct REAL NOT NULL,
  entrada TEXT NOT NULL,
  resultado TEXT NOT NULL,
  fecha TEXT NOT NULL
);
CREATE INDEX comparativas_usuario ON comparativas(usuario_id, marca_id, fecha);
