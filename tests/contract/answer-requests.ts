import { ApiCaller } from '../helpers/api-caller'
import { ADMIN } from '../reference-api/business-support'

/**
 * Realistic requests for the catalogue's shaped calls (JSON reads, and the edit calls that answer
 * the saved record, saved unchanged here), made by the contract test of the
 * answers (tests/contract/answers.test.ts). Keys come from the seed data through list calls,
 * never written down here, so the requests follow the seed.
 */

export interface AnswerRequest {
  /** What this variant shows, when a call has more than one (named in a failure). */
  variant?: string
  query?: Record<string, string | number | boolean>
  pathParams?: Record<string, string | number>
  body?: unknown
}

/** Keys of seeded records, read once through list calls. */
export interface SeedKeys {
  agentId: number
  apiUserId: number
  comparisonId: number
  contractCode: string
  /** A contract of the caller's brand with invoices. */
  invoicedContractCode: string
  /** An invoice of the caller's brand, and one of an indexed 3.0TD contract with excess power. */
  invoiceId: number
  excessInvoiceId: number
  cups: string
  nif: string
  clientId: number
  folderId: number
  userId: number
  tarifaId: number
  groupId: number
  /** An active contract and an agent as their GET answers them: the body of their edit calls. */
  editableContractCode: string
  contractRecord: unknown
  agentRecord: unknown
  /** A draft contract, ended (anulado) by the end call's request; not one the other requests read. */
  draftContractCode: string
}

interface Paged<T> {
  Items: T[]
}

async function firstItem<T>(api: ApiCaller, path: string, query: Record<string, string | number> = {}): Promise<T> {
  const res = await api.get<Paged<T>>(path, { pageSize: 1, ...query })
  const item = res.body.Items?.[0]
  if (res.status !== 200 || !item) throw new Error(`${path}: no seeded row (${res.status} ${res.text.slice(0, 200)})`)
  return item
}

async function json<T>(api: ApiCaller, path: string, query?: Record<string, string | number>): Promise<T> {
  const res = await api.get<T>(path, query)
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text.slice(0, 200)}`)
  return res.body
}

export async function readSeedKeys(api: ApiCaller): Promise<SeedKeys> {
  const contract = await firstItem<{ CodigoContrato: string; Cups: string; Nif: string }>(api, '/api/contract', { sortColumn: 'Id', sortOrder: 'asc' })
  const invoice = await firstItem<{ CodigoContrato: string; Id: number }>(api, '/api/facturas')
  const big = await firstItem<{ Id: number }>(api, '/api/facturas', { 'filterColumns[0]': 'Tarifa', 'filterQueries[0]': '3.0TD', sortColumn: 'ImporteTotal', sortOrder: 'desc' })
  const client = await json<{ Id: number }>(api, '/api/client', { identificador: contract.Nif })
  const folders = await json<{ Id: number }[]>(api, '/api/folders')
  const tarifas = await json<{ Id: number }[]>(api, '/api/utility/tarifas')
  const groups = await json<{ Id: number }[]>(api, '/api/grupousuarios/user-groups')
  const active = await firstItem<{ CodigoContrato: string }>(api, '/api/contract', { 'filterColumns[0]': 'Estado', 'filterQueries[0]': 'activo', sortColumn: 'Id', sortOrder: 'asc' })
  const agentId = (await firstItem<{ Id: number }>(api, '/api/agentes')).Id
  const draft = await firstItem<{ CodigoContrato: string }>(api, '/api/contract', { 'filterColumns[0]': 'Estado', 'filterQueries[0]': 'borrador', sortColumn: 'Id', sortOrder: 'desc' })
  return {
    agentId,
    apiUserId: (await firstItem<{ Id: number }>(api, '/api/apiusers/listado-api-user')).Id,
    comparisonId: (await firstItem<{ Id: number }>(api, '/api/comparador/comparativas')).Id,
    contractCode: contract.CodigoContrato,
    invoicedContractCode: invoice.CodigoContrato,
    invoiceId: invoice.Id,
    excessInvoiceId: big.Id,
    cups: contract.Cups,
    nif: contract.Nif,
    clientId: client.Id,
    folderId: folders[0]!.Id,
    userId: (await firstItem<{ Id: number }>(api, '/api/usuarios')).Id,
    tarifaId: tarifas[0]!.Id,
    groupId: groups[0]!.Id,
    editableContractCode: active.CodigoContrato,
    // An active contract: a closed one (baja, anulado) can no longer be edited.
    contractRecord: await json(api, '/api/contract/id', { codigo: active.CodigoContrato }),
    agentRecord: await json(api, `/api/agentes/${agentId}`),
    draftContractCode: draft.CodigoContrato,
  }
}

export const signInAdmin = (url: string) => ApiCaller.signIn(url, ADMIN)

const PAGE = { pageIndex: 0, pageSize: 25 }
const MONTH = { desde: '2026-10-01', hasta: '2026-10-31' }

/** Requests per call id: each answer is checked against the call's shape. */
export const ANSWER_REQUESTS: Record<string, (k: SeedKeys) => AnswerRequest[]> = {
  'agent.list': () => [{ query: PAGE }],
  'agent.loggedUserHierarchy': () => [{}],
  'agent.hierarchy': (k) => [{ pathParams: { id: k.agentId } }],
  'agent.detail': (k) => [{ pathParams: { id: k.agentId } }],
  'agent.linkableUsers': (k) => [{ pathParams: { id: k.agentId } }],
  'agent.update': (k) => [{ variant: 'saved as read', query: { id: k.agentId }, body: k.agentRecord }],
  'apiKey.list': (k) => [{ variant: 'all' }, { variant: 'one API user', query: { apiUserId: k.apiUserId } }],
  'apiKey.scopes': () => [{}],
  'apiUser.list': () => [{ query: PAGE }],
  'apiUser.detail': (k) => [{ query: { id: k.apiUserId } }],
  'apiUser.permissions': (k) => [{ query: { id: k.apiUserId } }],
  'auth.session': () => [{}],
  'battery.calculate': () => [
    {
      variant: 'typed prices',
      body: { ConsumoAnualKwh: 4000, ProduccionFvAnualKwh: 5000, AutoconsumoDirectoKwh: 1600, PrecioImportacionKwh: 0.16, PrecioExcedenteKwh: 0.06, PreciosConImpuestos: true },
    },
    { variant: 'a savings period', body: { ConsumoAnualKwh: 4000, ProduccionFvAnualKwh: 5000, AutoconsumoDirectoKwh: 1600, PreciosConImpuestos: false, FechasAhorroId: 1 } },
  ],
  'battery.savingPeriods': () => [{}],
  'client.byIdentifier': (k) => [{ query: { identificador: k.nif } }],
  'client.detail': (k) => [{ query: { id: k.clientId } }],
  'comparator.list': () => [{ query: PAGE }],
  'comparator.detail': (k) => [{ pathParams: { id: k.comparisonId } }],
  'contract.list': () => [{ query: PAGE }],
  'contract.detail': (k) => [{ query: { codigo: k.contractCode } }],
  'contract.update': (k) => [{ variant: 'saved as read', query: { codigo: k.editableContractCode }, body: k.contractRecord }],
  'contract.end': (k) => [{ variant: 'a draft cancelled', query: { codigo: k.draftContractCode }, body: { Estado: 'anulado', Motivo: 'El cliente decide no continuar con la contratación.' } }],
  'contract.documents': (k) => [{ query: { contrato: k.contractCode } }],
  'contract.stateCounts': () => [{ variant: 'by state' }, { variant: 'by province', query: { agrupar: 'provincia' } }],
  'contract.countPerMonth': () => [{ variant: 'default span' }, { variant: 'a year', query: { desde: '2025-11-01', hasta: '2026-10-31' } }],
  'contract.cupsActive': (k) => [{ body: { cups: k.cups } }],
  'contract.kleenCheck': (k) => [{ query: { codigoContrato: k.contractCode } }],
  'contract.kleenCheckWithDocuments': (k) => [{ query: { codigoContrato: k.contractCode } }],
  'contract.penalty': (k) => [{ query: { codigoContrato: k.contractCode } }],
  'energy.closingIndex': (k) => [
    { variant: 'without taxes', query: { ...MONTH, tarifa: k.tarifaId } },
    { variant: 'with taxes and fee', query: { ...MONTH, tarifa: k.tarifaId, modalidad: 'con_impuestos', fee: 5 } },
  ],
  'energy.surplus': (k) => [{ query: { ...MONTH, tarifa: k.tarifaId } }],
  'energy.omie': () => [
    { query: MONTH },
    { variant: 'a year, native', query: { desde: '2024-11-01', hasta: '2025-10-31', resolucion: 'nativa' } },
  ],
  'energy.lastDate': () => [{}],
  'energy.fixedPrice': (k) => [{ query: { tarifa: k.tarifaId } }],
  'folder.tree': () => [{}],
  'folder.detail': (k) => [{ variant: 'the root' }, { variant: 'a folder', query: { id: k.folderId } }],
  'group.list': () => [{}],
  'invoice.list': () => [{ query: PAGE }],
  'invoice.byContract': (k) => [{ query: { codigo: k.invoicedContractCode } }],
  'invoice.detail': (k) => [
    { variant: 'latest', pathParams: { id: k.invoiceId } },
    { variant: '3.0TD', pathParams: { id: k.excessInvoiceId } },
  ],
  'permission.list': () => [{}],
  'preference.list': () => [{}],
  'renewal.list': () => [{ query: PAGE }, { variant: 'with the substate filter', query: { ...PAGE, includeSubEstadoFilter: true } }],
  'renewal.substates': () => [{}],
  'sips.info': (k) => [{ query: { cups: k.cups } }],
  'sips.infoList': (k) => [{ body: { Cups: [k.cups, 'ES0000000000000000XX', 'no es un cups'] } }],
  'sips.infoRaw': (k) => [{ query: { cups: k.cups } }],
  'sips.consumption': (k) => [{ query: { cups: k.cups } }],
  'user.list': () => [{ query: PAGE }],
  'user.detail': (k) => [{ pathParams: { id: k.userId } }],
  'utility.cnaes': () => [{}],
  'utility.tarifas': () => [{}],
  'utility.tiposAltaSolicitud': () => [{}],
  'utility.tiposImpresionFacturas': () => [{}],
  'utility.provincias': () => [{}],
  'utility.estadosContrato': () => [{}],
  'utility.dashboardSummary': () => [{}],
  'utility.tiposComision': () => [{}],
  'utility.colectivos': () => [{}],
  'utility.userGroupOptions': () => [{}],
  'validator.iban': () => [{ variant: 'valid', query: { iban: 'ES9121000418450200051332' } }, { variant: 'invalid', query: { iban: 'ES0000000000000000000000' } }],
  'validator.nif': (k) => [{ variant: 'valid', query: { nif: k.nif } }, { variant: 'invalid', query: { nif: '12345678A' } }],
  'validator.cups': (k) => [{ variant: 'valid', query: { cups: k.cups } }, { variant: 'invalid', query: { cups: 'ES0000' } }],
}
