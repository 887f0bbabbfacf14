import { createHash } from 'node:crypto'
import { ApprovalPolicy, PolicyCondition, type PolicyItem, type PolicyVersionView } from '../../schemas/approval'
import type { AuditChange } from '../../schemas/audit'
import { HttpError } from '../lib/errors'
import { validatorFor, ValidationError } from '../lib/validate'
import { describeCondition } from './policy-describe'
import type { PolicyService, PolicyVersion } from './policy-service'

/**
 * The policy editor's pieces that need no request: a policy as a row of the editor and back
 * (each problem named by the field it belongs to, so the form can say where), its version
 * (ETag) for If-Match, and what changed between two versions of the list.
 */

const checkCondition = validatorFor<PolicyCondition>(PolicyCondition)
const checkPolicy = validatorFor<ApprovalPolicy>(ApprovalPolicy)
const ID = /^[a-z0-9][a-z0-9-]{0,59}$/
const CALL_ID = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/

export function policyItem(p: ApprovalPolicy, callName: (id: string) => string): PolicyItem {
  return {
    id: p.id,
    label: { es: p.label.es, en: p.label.en ?? '' },
    calls: p.calls,
    callNames: p.calls.map(callName),
    when: p.when ? JSON.stringify(p.when, null, 2) : null,
    condition: describeCondition(p.when),
    enabled: p.enabled !== false,
  }
}

/** The strong ETag of one policy: a digest of the policy as stored. */
export function policyTag(p: ApprovalPolicy): string {
  return `"${createHash('sha256').update(JSON.stringify(p)).digest('base64url').slice(0, 27)}"`
}

const fieldError = (field: string, message: string) => new HttpError(400, `${field}: ${message}`)

/** A condition typed as JSON text, checked; null when left empty (every call is held). */
export function parseCondition(raw: unknown): PolicyCondition | null {
  if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) return null
  let value: unknown = raw
  if (typeof raw === 'string') {
    if (raw.length > 20_000) throw fieldError('Condición', 'es demasiado larga (20 000 caracteres como mucho).')
    try {
      value = JSON.parse(raw)
    } catch {
      throw fieldError('Condición', 'no es un JSON válido. Escríbela como en los ejemplos: { "value": "body.Estado", "in": ["baja"] }.')
    }
  }
  try {
    return checkCondition(value, 'La condición')
  } catch (err) {
    if (err instanceof ValidationError) {
      throw fieldError('Condición', `no es válida (${err.details.slice(0, 2).join('; ')}). Usa value (body.X, query.X o record.X) con in o present, changed, o all, any y not para combinarlas.`)
    }
    throw err
  }
}

/** The policy an editor's form sends, checked field by field; `id` comes from the address on an edit. */
export function policyFromBody(raw: unknown, id?: string): ApprovalPolicy {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new HttpError(400, 'El cuerpo de la petición debe ser un objeto JSON con la política.')
  const body = raw as Record<string, unknown>
  const policyId = id ?? (typeof body.id === 'string' ? body.id.trim() : '')
  if (!ID.test(policyId)) throw fieldError('Identificador', 'escribe de 1 a 60 minúsculas, cifras o guiones, empezando por una letra o cifra (contract-end).')
  const label = body.label !== null && typeof body.label === 'object' && !Array.isArray(body.label) ? (body.label as Record<string, unknown>) : {}
  const es = typeof label.es === 'string' ? label.es.trim() : ''
  const en = typeof label.en === 'string' ? label.en.trim() : ''
  if (es === '') throw fieldError('Nombre', 'escribe qué protege la política, en español.')
  if (es.length > 200 || en.length > 200) throw fieldError('Nombre', 'no puede pasar de 200 caracteres.')
  const calls = Array.isArray(body.calls) ? body.calls : []
  if (calls.length === 0) throw fieldError('Llamadas', 'elige al menos una llamada del catálogo.')
  if (calls.length > 50) throw fieldError('Llamadas', 'como mucho 50 llamadas por política.')
  const bad = calls.find((c) => typeof c !== 'string' || !CALL_ID.test(c))
  if (bad !== undefined) throw fieldError('Llamadas', `«${String(bad).slice(0, 80)}» no es el identificador de una llamada del catálogo.`)
  const when = parseCondition(body.when)
  if (body.enabled !== undefined && body.enabled !== null && typeof body.enabled !== 'boolean') throw fieldError('Activa', 'debe ser sí o no.')
  const policy: ApprovalPolicy = {
    id: policyId,
    label: en ? { es, en } : { es },
    calls: [...new Set(calls as string[])],
    ...(when ? { when } : {}),
    ...(body.enabled === false ? { enabled: false } : {}),
  }
  return checkPolicy(policy, 'La política')
}

const labelEs = (p: ApprovalPolicy) => p.label.es
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** What changed from one list of policies to the next, policy by policy, in words. */
export function policyChanges(before: readonly ApprovalPolicy[], after: readonly ApprovalPolicy[]): AuditChange[] {
  const out: AuditChange[] = []
  const old = new Map(before.map((p) => [p.id, p]))
  const now = new Map(after.map((p) => [p.id, p]))
  for (const p of after) {
    const q = old.get(p.id)
    if (!q) {
      out.push({ field: p.id, before: null, after: `${labelEs(p)} — ${p.calls.join(', ')} — ${describeCondition(p.when).es}` })
      continue
    }
    if (!same(q.label, p.label)) out.push({ field: `${p.id} · nombre`, before: labelEs(q), after: labelEs(p) })
    if (!same(q.calls, p.calls)) out.push({ field: `${p.id} · llamadas`, before: q.calls.join(', '), after: p.calls.join(', ') })
    if (!same(q.when, p.when)) out.push({ field: `${p.id} · condición`, before: describeCondition(q.when).es, after: describeCondition(p.when).es })
    if ((q.enabled !== false) !== (p.enabled !== false)) out.push({ field: `${p.id} · activa`, before: q.enabled !== false ? 'sí' : 'no', after: p.enabled !== false ? 'sí' : 'no' })
  }
  for (const q of before) if (!now.has(q.id)) out.push({ field: q.id, before: `${labelEs(q)} — ${q.calls.join(', ')}`, after: null })
  return out
}

/** The saved versions, newest first, each with what changed against the one before (the first against the shipped defaults). */
export async function policyHistory(policies: PolicyService): Promise<PolicyVersionView[]> {
  const versions: PolicyVersion[] = await policies.history()
  const defaults = policies.shippedDefaults()
  return versions.map((v, i) => ({
    version: v.version,
    author: v.author,
    createdAt: new Date(v.createdAt).toISOString(),
    kind: v.kind,
    restoredFrom: v.restoredFrom,
    note: v.note,
    changes: policyChanges(versions[i + 1]?.policies ?? (v.version === 1 ? defaults : []), v.policies),
    policies: v.policies,
  }))
}
