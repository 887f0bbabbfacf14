-- The contract life cycle (README: Ciclo de vida, Documentos): the Kleen validation of a
-- contract, its electronic signature requests and its documents, and free-text remarks.
-- Seeded contracts are made consistent with these (validated when past `firmado`, a signature
-- request when sent to sign, a signed-contract document when signed) by
-- `lib/lifecycle-backfill.ts`, once, after seeding.

-- Kleen validation (data and documents checked) by whom and when; required before sending
-- the switching request to the distributor. A contract is validated once, in `firmado`.
ALTER TABLE contratos ADD COLUMN validado INTEGER NOT NULL DEFAULT 0 CHECK (validado IN (0, 1));
ALTER TABLE contratos ADD COLUMN validado_en TEXT;
ALTER TABLE contratos ADD COLUMN validado_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL;
-- Remarks entered with the contract (`Observaciones` of the insert call).
ALTER TABLE contratos ADD COLUMN observaciones TEXT;

-- Files attached to a contract. The bytes live on disk under DATA_DIR/documentos/, at
-- `ruta` (relative to that folder, named by ids only: never by the uploaded name). `nombre`
-- is the uploaded name, sanitised, used only for the download header. `ruta` NULL = no
-- stored file: the demo's seeded signed contracts, rendered on demand as the contract PDF
-- (tamano and sha256 are then NULL).
CREATE TABLE contrato_documentos (
  id INTEGER PRIMARY KEY,
  contrato_id INTEGER NOT NULL REFERENCES contratos(id) ON DELETE CASCADE,
  tipo TEXT NOT NULL CHECK (tipo IN ('contrato_firmado', 'dni', 'cif_escrituras', 'factura_anterior', 'otro')),
  nombre TEXT NOT NULL,
  tipo_mime TEXT NOT NULL,
  tamano INTEGER,
  sha256 TEXT,
  ruta TEXT,
  fecha TEXT NOT NULL,
  usuario_id INTEGER REFERENCES usuarios(id) ON DELETE SET NULL
);
CREATE INDEX contrato_documentos_contrato ON contrato_documentos(contrato_id, fecha);

-- Electronic signature requests (provider "Firma electrónica Portal"). estado: 'pendiente'
-- (sent, waiting for the holder), 'firmada' (signed: the contract moved to `firmado`),
-- 'cancelada' (the contract was cancelled before signing).
CREATE TABLE contrato_firmas (
  id INTEGER PRIMARY KEY,
  contrato_id INTEGER NOT NULL REFERENCES contratos(id) ON DELETE CASCADE,
  proveedor TEXT NOT NULL,
  solicitud_id TEXT NOT NULL UNIQUE,
  enlace TEXT NOT NULL,
  destinatario TEXT,
  estado TEXT NOT NULL CHECK (estado IN ('pendiente', 'firmada', 'cancelada')),
  enviada_en TEXT NOT NULL,
  enviada_por INTEGER REFERENCES usuarios(id) ON DELETE SET NULL,
  firmada_en TEXT,
  documento_id INTEGER REFERENCES contrato_documentos(id) ON DELETE SET NULL
);
CREATE INDEX contrato_firmas_contrato ON contrato_firmas(contrato_id, enviada_en);
