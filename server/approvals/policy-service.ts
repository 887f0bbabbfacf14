import { ApprovalPolicies, type ApprovalPolicy } from '../../schemas/approval'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import type { CallIndex } from '../../schemas/catalogue/match'
import type { AuditOrigin, AuditWriter } from '../audit/audit-writer'
import { HttpError } from '../lib/errors'
import { validatorFor, ValidationError } from '../lib/validate'
import type { MenuStore, StoredVersion } from '../manifest/menu-store'
import { DEFAULT_POLICIES } from './default-policies'
import { lookupsOf } from './policy-condition'

/** The policies' document in the versioned store shared with menus and screens. */
export const POLICIES_DOC = 'approval-policies'
/** How long an instance reuses the policies it read; a save anywhere drops it at once (store notices). */
const CACHE_MS = 2_000

const checkShape = validatorFor<ApprovalPolicies>(ApprovalPolicies)

/** The policies in force and their version (0: the shipped defaults). */
export interface CurrentPolicies {
  version: number
  policies: ApprovalPolicy[]
  author?: StoredVersion['author']
  savedAt?: number
}

/** What a version stores: the policies and the note its author gave. Versions saved before notes existed hold the bare list. */
type PoliciesDoc = { policies: ApprovalPolicy[]; note?: string } | ApprovalPolicy[]

/** One saved version, as the editor's history lists it. */
export interface PolicyVersion {
  version: number
  author: StoredVersion['author']
  createdAt: number
  kind: StoredVersion['kind']
  restoredFrom: number | null
  note: string | null
  policies: ApprovalPolicy[]
}

const policiesOf = (body: PoliciesDoc): ApprovalPolicy[] => (Array.isArray(body) ? body : body.policies)
const noteOf = (body: PoliciesDoc): string | null => (Array.isArray(body) ? null : (body.note ?? null))
const versionOf = (v: StoredVersion<PoliciesDoc>): PolicyVersion => ({
  version: v.version,
  author: v.author,
  createdAt: v.createdAt,
  kind: v.kind,
  restoredFrom: v.restoredFrom,
  note: noteOf(v.body),
  policies: policiesOf(v.body),
})
/** A version note: trimmed, at most this long. */
export const NOTE_MAX = 500

/**
 * The approval policies: data admins edit, versioned like the menu (same store, so SQLite or
 * Redis as configured, with history and a 409 for a save over a newer version), each save in
 * the audit. Until the first save the shipped defaults apply, minus the calls the catalogue
 * does not hold (a default for a call another release adds waits dormant).
 */
export class PolicyService {
  private cached: { at: number; value: CurrentPolicies } | null = null
  private readonly unsubscribe: () => void
  private readonly calls: Map<string, Endpoint>

  constructor(
    private readonly store: MenuStore,
    private readonly audit: AuditWriter,
    catalogue: CallIndex,
    private readonly now: () => number = Date.now,
  ) {
    this.calls = new Map(catalogue.calls.map((c) => [c.id, c]))
    this.unsubscribe = store.subscribe((doc) => {
      if (doc === POLICIES_DOC) this.cached = null
    })
  }

  /** The policies as stored (or the defaults), for the editor. */
  async current(): Promise<CurrentPolicies> {
    if (this.cached && this.now() - this.cached.at < CACHE_MS) return this.cached.value
    const stored = await this.store.current<PoliciesDoc>(POLICIES_DOC)
    const value: CurrentPolicies = stored
      ? { version: stored.version, policies: policiesOf(stored.body), author: stored.author, savedAt: stored.createdAt }
      : { version: 0, policies: this.shippedDefaults() }
    this.cached = { at: this.now(), value }
    return value
  }

  /** The enabled policies over calls the catalogue holds: what the proxy applies. */
  async active(): Promise<ApprovalPolicy[]> {
    return (await this.current()).policies.filter((p) => p.enabled !== false && p.calls.some((id) => this.calls.has(id)))
  }

  async history(limit = 50): Promise<PolicyVersion[]> {
    return (await this.store.history<PoliciesDoc>(POLICIES_DOC, limit)).map(versionOf)
  }

  /** Checks and saves a new version with its note; VersionConflictError when someone saved first. */
  async save(origin: AuditOrigin, expectedVersion: number, raw: unknown, note?: string | null): Promise<PolicyVersion> {
    const policies = this.check(raw)
    const text = cleanNote(note)
    const saved = await this.store.save<PoliciesDoc>(POLICIES_DOC, expectedVersion, text ? { policies, note: text } : { policies }, origin.author)
    this.cached = null
    await this.audit.admin(origin, { action: 'approvals.policies.save', doc: `${POLICIES_DOC}:all`, version: saved.version, details: { policies: policies.map((p) => p.id), ...(text ? { note: text } : {}) } })
    return versionOf(saved)
  }

  /** Saves an earlier version's policies as the newest version (checked against today's catalogue); 404 for a version that does not exist. */
  async restore(origin: AuditOrigin, expectedVersion: number, version: number, note?: string | null): Promise<PolicyVersion> {
    const old = version === 0 ? null : await this.store.get<PoliciesDoc>(POLICIES_DOC, version)
    if (version !== 0 && !old) throw new HttpError(404, `No existe la versión ${version} de las políticas.`)
    const policies = this.check(old ? policiesOf(old.body) : this.shippedDefaults())
    const text = cleanNote(note) ?? `Restaurada la versión ${version}.`
    const saved = await this.store.save<PoliciesDoc>(POLICIES_DOC, expectedVersion, { policies, note: text }, origin.author, 'rollback', version)
    this.cached = null
    await this.audit.admin(origin, { action: 'approvals.policies.restore', doc: `${POLICIES_DOC}:all`, version: saved.version, details: { restoredFrom: version, policies: policies.map((p) => p.id), note: text } })
    return versionOf(saved)
  }

  /** The defaults with the calls this catalogue lacks left out (a policy left with none is left out). */
  shippedDefaults(): ApprovalPolicy[] {
    return DEFAULT_POLICIES.map((p) => ({ ...p, calls: p.calls.filter((id) => this.calls.has(id)) })).filter((p) => p.calls.length > 0)
  }

  /** The shape, then the catalogue: calls that exist and change something with a JSON body or none; lookups over catalogued reads. */
  check(raw: unknown): ApprovalPolicy[] {
    let policies: ApprovalPolicy[]
    try {
      policies = checkShape(raw, 'La lista de políticas')
    } catch (err) {
      if (err instanceof ValidationError) throw new HttpError(400, err.message)
      throw err
    }
    const ids = new Set<string>()
    for (const policy of policies) {
      if (ids.has(policy.id)) throw new HttpError(400, `La política «${policy.id}» está repetida.`)
      ids.add(policy.id)
      const problem = this.catalogueProblem(policy)
      if (problem) throw new HttpError(400, problem.message)
    }
    return policies
  }

  /** What the catalogue says against one policy, and the field it belongs to: calls that exist and change something with a JSON body or none; lookups over catalogued reads. */
  catalogueProblem(policy: ApprovalPolicy): { field: 'calls' | 'when'; message: string } | null {
    for (const id of policy.calls) {
      const call = this.calls.get(id)
      if (!call) return { field: 'calls', message: `La política «${policy.id}» nombra una llamada que no está en el catálogo: «${id}».` }
      if (call.effect !== 'mutation') return { field: 'calls', message: `La política «${policy.id}» nombra «${id}», que es una consulta: solo se aprueban cambios.` }
      if (call.body?.kind === 'multipart') return { field: 'calls', message: `La política «${policy.id}» nombra «${id}», una subida de archivos: no se puede retener.` }
    }
    for (const lookup of lookupsOf(policy.when)) {
      const read = this.calls.get(lookup.call)
      if (!read || read.effect !== 'read' || read.method !== 'GET' || (read.pathParams && Object.keys(read.pathParams).length > 0)) {
        return { field: 'when', message: `La política «${policy.id}» busca en «${lookup.call}», que no es una consulta de lista del catálogo.` }
      }
    }
    return null
  }

  /** The catalogued calls a policy may name (mutations with a JSON body or none), for the editor. */
  holdableCalls(): Endpoint[] {
    return [...this.calls.values()].filter((c) => c.effect === 'mutation' && c.body?.kind !== 'multipart' && (c.access ?? 'session') === 'session')
  }

  /** `PUT api/contract/update/fin` for a call id; the id itself for a call the catalogue lacks. */
  callName(id: string): string {
    const call = this.calls.get(id)
    return call ? `${call.method} ${call.path}` : id
  }

  close(): void {
    this.unsubscribe()
  }
}

function cleanNote(note: string | null | undefined): string | null {
  const text = (note ?? '').trim()
  if (text.length > NOTE_MAX) throw new HttpError(400, `Nota de la versión: no puede pasar de ${NOTE_MAX} caracteres.`)
  return text === '' ? null : text
}
