-- Business data of each brand: clients, supply points, contracts and their history,
-- invoices and renewals. Every row belongs to one brand (marca_id) and a call only ever
-- sees its brand's rows. Dates are ISO `YYYY-MM-DD`; timestamps ISO `YYYY-MM-DDTHH:MM:SSZ`
-- (UTC). Catalog codes (tariff ids, CNAE, request/print/commission types, collectives,
-- provinces, contract states) are the ones of `data/*.json`.

-- Holders of contracts: natural persons (DNI/NIE) or legal entities (CIF).
CREATE TABLE clientes (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  tipo TEXT NOT NULL CHECK (tipo IN ('fisica', 'juridica')),
  nif TEXT NOT NULL,
  -- natural person: nombre + apellidos; legal entity: razon_social (+ forma_juridica)
  nombre TEXT,
  apellido1 TEXT,
  apellido2 TEXT,
  razon_social TEXT,
  forma_juridica TEXT,
  -- the name shown everywhere (lists, documents, filters)
  titular TEXT GENERATED ALWAYS AS (
    CASE WHEN tipo = 'juridica' THEN razon_social
         ELSE trim(coalesce(nombre, '') || ' ' || coalesce(apellido1, '') || ' ' || coalesce(apellido2, '')) END
  ) STORED,
  email TEXT,
  telefono TEXT,
  direccion TEXT NOT NULL,
  codigo_postal TEXT NOT NULL,
  municipio TEXT NOT NULL,
  provincia_id INTEGER NOT NULL,
  iban TEXT,
  fecha_alta TEXT NOT NULL,
  CHECK (tipo = 'juridica' OR (nombre IS NOT NULL AND apellido1 IS NOT NULL)),
  CHECK (tipo = 'fisica' OR razon_social IS NOT NULL),
  UNIQUE (marca_id, nif)
);
CREATE INDEX clientes_marca_titular ON clientes(marca_id, titular);

-- Supply points (CUPS). A client may own several.
CREATE TABLE puntos_suministro (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  cliente_id INTEGER NOT NULL REFERENCES clientes(id),
  cups TEXT NOT NULL UNIQUE,
  direccion TEXT NOT NULL,
  codigo_postal TEXT NOT NULL,
  municipio TEXT NOT NULL,
  provincia_id INTEGER NOT NULL,
  distribuidora_codigo TEXT NOT NULL CHECK (length(distribuidora_codigo) = 4),
  distribuidora_nombre TEXT NOT NULL,
  tarifa_id INTEGER NOT NULL,
  cnae TEXT
);
CREATE INDEX puntos_suministro_cliente ON puntos_suministro(cliente_id);
CREATE INDEX puntos_suministro_marca ON puntos_suministro(marca_id);

-- Supply contracts. Code `<PREFIX>-<YYYY>-<NNNNNN>` (PREFIX by brand, YYYY the sign-up year).
-- Prices: modalidad 'fijo' uses precio_energia_p1..p6 (€/kWh); 'indexado' uses fee_mwh
-- (€/MWh over the market price). Periods the tariff lacks are NULL.
CREATE TABLE contratos (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  codigo TEXT NOT NULL,
  cliente_id INTEGER NOT NULL REFERENCES clientes(id),
  punto_suministro_id INTEGER NOT NULL REFERENCES puntos_suministro(id),
  tarifa_id INTEGER NOT NULL,
  estado TEXT NOT NULL CHECK (estado IN ('borrador', 'pendiente_firma', 'firmado', 'enviado_distribuidora', 'aceptado', 'rechazado',
                                          'activo', 'baja', 'desistido', 'anulado', 'modificacion_en_curso')),
  motivo_rechazo TEXT,
  agente_id INTEGER REFERENCES agentes(id),
  potencia_p1 REAL, potencia_p2 REAL, potencia_p3 REAL, potencia_p4 REAL, potencia_p5 REAL, potencia_p6 REAL,
  modalidad TEXT NOT NULL CHECK (modalidad IN ('fijo', 'indexado')),
  precio_energia_p1 REAL, precio_energia_p2 REAL, precio_energia_p3 REAL,
  precio_energia_p4 REAL, precio_energia_p5 REAL, precio_energia_p6 REAL,
  fee_mwh REAL,
  -- power term prices, €/kW and day
  precio_potencia_p1 REAL, precio_potencia_p2 REAL, precio_potencia_p3 REAL,
  precio_potencia_p4 REAL, precio_potencia_p5 REAL, precio_potencia_p6 REAL,
  cnae TEXT,
  tipo_alta_solicitud_id INTEGER,
  tipo_impresion_factura_id INTEGER,
  tipo_comision_id INTEGER,
  colectivo_id INTEGER,
  iban TEXT,
  consumo_anual_kwh INTEGER,
  fecha_alta TEXT NOT NULL,
  fecha_firma TEXT,
  fecha_activacion TEXT,
  fecha_baja TEXT,
  fecha_proxima_renovacion TEXT,
  creado_en TEXT NOT NULL,
  creado_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  actualizado_en TEXT NOT NULL,
  actualizado_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  CHECK (modalidad = 'fijo' OR fee_mwh IS NOT NULL),
  CHECK (modalidad = 'indexado' OR precio_energia_p1 IS NOT NULL),
  UNIQUE (marca_id, codigo)
);
CREATE INDEX contratos_marca_fecha_alta ON contratos(marca_id, fecha_alta);
CREATE INDEX contratos_marca_estado ON contratos(marca_id, estado);
CREATE INDEX contratos_marca_agente ON contratos(marca_id, agente_id);
CREATE INDEX contratos_agente ON contratos(agente_id);
CREATE INDEX contratos_cliente ON contratos(cliente_id);
CREATE INDEX contratos_punto_suministro ON contratos(punto_suministro_id);
CREATE INDEX contratos_marca_renovacion ON contratos(marca_id, fecha_proxima_renovacion);

-- What happened to a contract, oldest first. usuario_id NULL = the system (distributor
-- answers, scheduled jobs). estado_anterior/estado_nuevo are NULL when the state did not change.
CREATE TABLE contrato_historial (
  id INTEGER PRIMARY KEY,
  contrato_id INTEGER NOT NULL REFERENCES contratos(id) ON DELETE CASCADE,
  fecha TEXT NOT NULL,
  usuario_id INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  accion TEXT NOT NULL,
  estado_anterior TEXT,
  estado_nuevo TEXT,
  detalle TEXT
);
CREATE INDEX contrato_historial_contrato ON contrato_historial(contrato_id, fecha);

-- Monthly invoices. Number `F<PREFIX><YYYY>-<NNNNNNN>` (YYYY the issue year).
-- impuesto_electrico = 5.11269632 % of (termino_energia + termino_potencia);
-- base_imponible = energía + potencia + impuesto + alquiler; iva = 21 % of the base.
CREATE TABLE facturas (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  numero TEXT NOT NULL,
  contrato_id INTEGER NOT NULL REFERENCES contratos(id),
  periodo_desde TEXT NOT NULL,
  periodo_hasta TEXT NOT NULL,
  fecha_emision TEXT NOT NULL,
  fecha_vencimiento TEXT NOT NULL,
  consumo_kwh REAL NOT NULL,
  termino_energia REAL NOT NULL,
  termino_potencia REAL NOT NULL,
  impuesto_electrico REAL NOT NULL,
  alquiler_contador REAL NOT NULL,
  base_imponible REAL NOT NULL,
  iva REAL NOT NULL,
  total REAL NOT NULL,
  estado_pago TEXT NOT NULL CHECK (estado_pago IN ('pagada', 'pendiente', 'devuelta', 'impagada')),
  fecha_cobro TEXT,
  UNIQUE (marca_id, numero)
);
CREATE INDEX facturas_marca_emision ON facturas(marca_id, fecha_emision);
CREATE INDEX facturas_contrato ON facturas(contrato_id, fecha_emision);
CREATE INDEX facturas_marca_estado ON facturas(marca_id, estado_pago);

-- Renewal sub-states (a fixed catalog).
CREATE TABLE subestados_renovacion (
  id INTEGER PRIMARY KEY,
  codigo TEXT NOT NULL UNIQUE,
  nombre TEXT NOT NULL,
  -- a closed renewal takes no more changes
  final INTEGER NOT NULL DEFAULT 0
);
INSERT INTO subestados_renovacion (id, codigo, nombre, final) VALUES
  (1, 'proxima_renovacion', 'Próxima renovación', 0),
  (2, 'ofertada', 'Oferta enviada', 0),
  (3, 'aceptada', 'Oferta aceptada', 0),
  (4, 'renovado', 'Renovado', 1),
  (5, 'no_renovado', 'No renovado', 0),
  (6, 'baja_solicitada', 'Baja solicitada', 0);

-- One row per contract anniversary being worked on. precio_* are the average energy price
-- in €/kWh for 'fijo' contracts and the fee in €/MWh for 'indexado' ones.
CREATE TABLE renovaciones (
  id INTEGER PRIMARY KEY,
  marca_id INTEGER NOT NULL REFERENCES marcas(id),
  contrato_id INTEGER NOT NULL REFERENCES contratos(id) ON DELETE CASCADE,
  fecha_renovacion TEXT NOT NULL,
  subestado_id INTEGER NOT NULL REFERENCES subestados_renovacion(id),
  precio_actual REAL NOT NULL,
  precio_propuesto REAL NOT NULL,
  actualizado_en TEXT NOT NULL,
  actualizado_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  UNIQUE (contrato_id, fecha_renovacion)
);
CREATE INDEX renovaciones_marca_fecha ON renovaciones(marca_id, fecha_renovacion);
CREATE INDEX renovaciones_marca_subestado ON renovaciones(marca_id, subestado_id);
