import { describe, expect, it } from 'vitest'
import type { PolicyCondition } from '../../schemas/approval'
import { DEFAULT_POLICIES } from '../../server/approvals/default-policies'
import { holds, type LookupReader } from '../../server/approvals/policy-condition'

/**
 * The policies' conditions: the defaults express what issue 16 asks for, including the IBAN of an
 * active contract for the contract's edit call (its body is the record as its GET returns it).
 */

const when = (id: string) => DEFAULT_POLICIES.find((p) => p.id === id)!.when as PolicyCondition
const noLookups: LookupReader = async () => new Map()
const contract = { CodigoContrato: 'EV-2026-000343', Estado: 'activo', Iban: 'ES9121000418450200051332', Cliente: { Nombre: 'Ana', Iban: 'ES9121000418450200051332' } }
const check = (id: string, body: unknown, record: unknown = contract, lookup = noLookups) => holds(when(id), { body, query: {}, record }, lookup)

describe('default conditions', () => {
  it('the IBAN of an active contract: held when it changes, not when it stays or the contract is not active', async () => {
    expect(await check('contract-iban-active', { ...contract, Iban: 'ES7921000813610123456789' })).toBe(true)
    expect(await check('contract-iban-active', { ...contract, Cliente: { ...contract.Cliente, Iban: 'ES7921000813610123456789' } })).toBe(true)
    expect(await check('contract-iban-active', { ...contract, Cliente: { ...contract.Cliente, Nombre: 'Ana María' } })).toBe(false)
    expect(await check('contract-iban-active', { ...contract, Iban: 'ES7921000813610123456789' }, { ...contract, Estado: 'borrador' })).toBe(false)
    // The record could not be read: held, a second person looks.
    expect(await check('contract-iban-active', { ...contract, Iban: 'ES7921000813610123456789' }, undefined)).toBe(true)
  })

  it('a status change to baja or anulado, not to another state nor a save that keeps it', async () => {
    expect(await check('contract-end', { ...contract, Estado: 'baja' })).toBe(true)
    expect(await check('contract-end', { ...contract, Estado: 'anulado' })).toBe(true)
    expect(await check('contract-end', { ...contract, Estado: 'modificacion_en_curso' })).toBe(false)
    expect(await check('contract-end', { ...contract, Estado: 'baja' }, { ...contract, Estado: 'baja' })).toBe(false)
  })

  it('GESTORACCESS granted directly or through a group, by id through the lookups; an unreadable lookup holds', async () => {
    const lookup: LookupReader = async (l) =>
      l.call === 'permission.list'
        ? new Map([['1', ['VERRENOVACIONES']], ['2', ['GESTORACCESS']]])
        : new Map([['1', ['VERRENOVACIONES', 'GESTORACCESS']], ['2', ['VERRENOVACIONES']]])
    const direct = (policy: string, body: unknown, query: Record<string, string> = {}) => holds(when(policy), { body, query, record: undefined }, lookup)
    expect(await direct('grant-gestoraccess', [1, 2])).toBe(true)
    expect(await direct('grant-gestoraccess', [1])).toBe(false)
    expect(await direct('grant-gestoraccess-to-group', { PermisoId: 2, GrupoId: 4 })).toBe(true)
    expect(await direct('grant-gestoraccess-to-group', { PermisoId: 1, GrupoId: 2 })).toBe(false)
    expect(await direct('grant-gestoraccess-users', undefined, { permiso: '2' })).toBe(true)
    // Giving another permission to users whose ids happen to be GESTORACCESS's id is not held.
    expect(await direct('grant-gestoraccess-users', [2, 7], { permiso: '1' })).toBe(false)
    const group = (body: unknown, query: Record<string, string>) => holds(when('grant-gestoraccess-group'), { body, query, record: undefined }, lookup)
    expect(await group(undefined, { userId: '7', userGroup: '1' })).toBe(true)
    expect(await group([2], { userId: '7' })).toBe(false)
    expect(await group([2, 1], { userId: '7' })).toBe(true)
    expect(await holds(when('grant-gestoraccess-new-user'), { body: { Email: 'x@portal.test', Grupos: [2] }, query: {}, record: undefined }, lookup)).toBe(false)
    expect(await holds(when('grant-gestoraccess-new-user'), { body: { Email: 'x@portal.test', Grupos: [1] }, query: {}, record: undefined }, lookup)).toBe(true)
    expect(await holds(when('grant-gestoraccess-new-user'), { body: { Email: 'x@portal.test', Grupos: [2] }, query: {}, record: undefined }, async () => null)).toBe(true)
  })
})
