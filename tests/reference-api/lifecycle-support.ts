import type Database from 'better-sqlite3'
import type { ApiCaller } from '../helpers/api-caller'
import type { ContractDetail, ContractDocument } from '../../schemas/business/contracts'
export { pdfText } from '../helpers/pdf-text'

/** Shared bits of the contract life-cycle suites (tests/reference-api/lifecycle-*.test.ts). */

export interface InsertAnswer {
  Id: number
  CodigoContrato: string
  Estado: string
  ClienteId: number
  ClienteCreado: boolean
  PuntoSuministroId: number
  PuntoSuministroCreado: boolean
}

/** DNI numbers for fresh holders: 8 digits + the control letter. */
export function dni(n: number): string {
  return String(n).padStart(8, '0') + 'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]
}

/** A valid CUPS of i-DE (0021) from a 12-digit serial. */
export function cups(serial: number, distributor = '0021'): string {
  const digits = distributor + String(serial).padStart(12, '0')
  const r = Number(BigInt(digits) % 529n)
  const T = 'TRWAGMYFPDXBNJZSQVHLCKE'
  return `ES${digits}${T[Math.floor(r / 23)]}${T[r % 23]}`
}

/** The insert body of the README example: a person in Madrid on 2.0TD, fixed price. */
export function insertBody(overrides: { nif?: string; cups?: string; agenteId?: number } = {}): Record<string, unknown> {
  return {
    Cliente: {
      Tipo: 'fisica',
      Nif: overrides.nif ?? '12345678Z',
      Nombre: 'Lucía',
      Apellido1: 'Fernández',
      Apellido2: 'Ruiz',
      RazonSocial: null,
      FormaJuridica: null,
      Email: 'lucia@example.es',
      Telefono: '612345678',
      Direccion: 'Calle Mayor 1, 2º B',
      CodigoPostal: '28013',
      Municipio: 'Madrid',
      ProvinciaId: 28,
    },
    PuntoSuministro: { Cups: overrides.cups ?? 'ES0021000000000001RK', Direccion: 'Calle Mayor 1, 2º B', CodigoPostal: '28013', Municipio: 'Madrid', ProvinciaId: 28 },
    TarifaId: 1,
    Potencias: { P1: 4.6, P2: 4.6, P3: null, P4: null, P5: null, P6: null },
    Modalidad: 'fijo',
    FeeMwh: null,
    ConsumoAnual: 3200,
    Cnae: '9820',
    TipoAltaSolicitudId: 1,
    TipoImpresionFacturaId: 1,
    TipoComisionId: 1,
    ColectivoId: 1,
    ...(overrides.agenteId === undefined ? {} : { AgenteId: overrides.agenteId }),
    Iban: 'ES9121000418450200051332',
    Observaciones: 'Alta de prueba.',
  }
}

/** An active agent of the brand (the first by code), for insert bodies. */
export function activeAgent(db: Database.Database, dominio = 'energiaverde.es'): number {
  return (db.prepare('SELECT a.id FROM agentes a JOIN marcas m ON m.id = a.marca_id WHERE m.dominio = ? AND a.activo = 1 ORDER BY a.codigo LIMIT 1').get(dominio) as { id: number }).id
}

/** Creates a contract through the API (201 expected). */
export async function insertContract(api: ApiCaller, body: Record<string, unknown>): Promise<InsertAnswer> {
  const res = await api.post<InsertAnswer>('/api/contract/insert', body)
  if (res.status !== 201) throw new Error(`insert: ${res.status} ${res.text}`)
  return res.body
}

export async function detail(api: ApiCaller, code: string): Promise<ContractDetail> {
  const res = await api.get<ContractDetail>('/api/contract/id', { codigo: code })
  if (res.status !== 200) throw new Error(`detail: ${res.status} ${res.text}`)
  return res.body
}

/** Small but real files of each kind (magic bytes first). */
export const FILES = {
  pdf: (text = 'documento') => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n`, 'latin1'),
  png: () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-test-image-bytes')]),
  jpg: () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-test-image-bytes')]),
}

/** A multipart body: `CodigoContrato`, optional `Tipo`, and files in `Archivos`. */
export function uploadForm(code: string | null, files: { name: string; bytes: Buffer; type?: string; field?: string }[], tipo?: string): FormData {
  const form = new FormData()
  if (code !== null) form.append('CodigoContrato', code)
  if (tipo !== undefined) form.append('Tipo', tipo)
  for (const f of files) form.append(f.field ?? 'Archivos', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name)
  return form
}

export async function upload(api: ApiCaller, code: string | null, files: { name: string; bytes: Buffer; type?: string; field?: string }[], tipo?: string) {
  return api.call<ContractDocument[]>('POST', '/api/contract/insert-documents', { body: uploadForm(code, files, tipo) })
}

/** A contract row as stored (to compare before and after a refused call). */
export function contractRow(db: Database.Database, code: string): Record<string, unknown> {
  return db.prepare('SELECT * FROM contratos WHERE codigo = ?').get(code) as Record<string, unknown>
}

export function historyCount(db: Database.Database, code: string): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM contrato_historial h JOIN contratos c ON c.id = h.contrato_id WHERE c.codigo = ?').get(code) as { n: number }).n
}
