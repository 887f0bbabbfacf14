import { describe, expect, it } from 'vitest'
import type { Field } from '../../schemas/screen'
import { runRouteCheck, UnknownRouteCheckError } from '../../client/app/route-checks'
import { toOptions } from '../../client/renderer/options'
import { toBody, validateField } from '../../client/renderer/form/validation'
import { getPath, resolveValue } from '../../client/renderer/template'

describe('provinces for a select (spec §5)', () => {
  const source = { endpoint: 'api/utility/provincias', valueField: 'Id', labelField: 'Nombre', requireLabel: true, sortByLabel: true }
  it('drops entries without Nombre and sorts the rest in Spanish order', () => {
    const items = [
      { Id: 5, Nombre: 'Ávila' },
      { Id: 99 },
      { Id: 2, Nombre: 'Albacete' },
      { Id: 98, Nombre: '' },
      { Id: 15, Nombre: 'A Coruña' },
      { Id: 97, Nombre: null },
      { Id: 1, Nombre: 'Araba/Álava' },
      { Id: 100, Nombre: 'Ñandú' },
      { Id: 31, Nombre: 'Navarra' },
      { Id: 33, Nombre: 'Asturias' },
      { Id: 50, Nombre: 'Zaragoza' },
      { Id: 6, Nombre: 'Badajoz' },
    ]
    const names = toOptions(items, source).map((o) => o.label)
    expect(names).toEqual(['A Coruña', 'Albacete', 'Araba/Álava', 'Asturias', 'Ávila', 'Badajoz', 'Navarra', 'Ñandú', 'Zaragoza'])
  })
  it('keeps the API order when not asked to sort, and builds labels from a template', () => {
    const out = toOptions([{ Codigo: '9820', Nombre: 'Hogares' }, { Codigo: '0111', Nombre: 'Cereales' }], { endpoint: 'api/utility/cnaes', valueField: 'Codigo', labelField: 'Nombre', labelTemplate: '{Codigo} — {Nombre}' })
    expect(out).toEqual([
      { value: '9820', label: '9820 — Hogares' },
      { value: '0111', label: '0111 — Cereales' },
    ])
  })
})

describe('route checks (spec §8: an unknown check name raises an error)', () => {
  it('rejects an unknown name', async () => {
    await expect(runRouteCheck('no-existe', { params: {}, search: new URLSearchParams() })).rejects.toBeInstanceOf(UnknownRouteCheckError)
  })
  it('passes the duplicate-route check when nothing is to be duplicated', async () => {
    await expect(runRouteCheck('duplicate-route', { params: {}, search: new URLSearchParams() })).resolves.toBe(true)
  })
  it('refuses a malformed contract reference without calling the server', async () => {
    await expect(runRouteCheck('contract-detail', { params: { referencia: '../../etc' }, search: new URLSearchParams() })).resolves.toBe(false)
  })
})

describe('form rules', () => {
  const p1: Field = { name: 'Potencias.P1', label: 'P1', input: 'number' }
  const p3: Field = { name: 'Potencias.P3', label: 'P3', input: 'number', notBelow: { field: 'Potencias.P2', message: 'P3 no puede ser menor que P2.' } }
  it('checks required, length, pattern, e-mail and powers in order', () => {
    expect(validateField({ ...p1, required: true }, null, {})).toBe('Este campo es obligatorio.')
    expect(validateField(p3, 10, { 'Potencias.P2': 12 })).toBe('P3 no puede ser menor que P2.')
    expect(validateField(p3, 12, { 'Potencias.P2': 12 })).toBeNull()
    expect(validateField({ name: 'e', label: 'e', input: 'email' }, 'no-es-correo', {})).toBe('Introduce un correo electrónico válido.')
    expect(validateField({ name: 'cp', label: 'cp', input: 'text', pattern: { regex: '^\\d{5}$', message: 'Cinco cifras.' } }, '2801', {})).toBe('Cinco cifras.')
    expect(validateField({ name: 'x', label: 'x', input: 'text', minLength: 3 }, 'ab', {})).toBe('Debe tener al menos 3 caracteres.')
  })
  it('refuses a file over the size limit', () => {
    const big = new File([new Uint8Array(2 * 1024 * 1024)], 'grande.pdf')
    expect(validateField({ name: 'Archivos', label: 'A', input: 'file', maxSizeMb: 1 }, [big], {})).toBe('«grande.pdf» supera 1 MB.')
  })
  it('nests dotted names into the request body and leaves out excluded fields', () => {
    const fields: Field[] = [
      { name: 'Cliente.Nif', label: 'NIF', input: 'text' },
      { name: 'Cliente.Nombre', label: 'Nombre', input: 'text' },
      { name: 'Potencias.P1', label: 'P1', input: 'number' },
      { name: 'Confirmacion', label: 'C', input: 'password', exclude: true },
    ]
    expect(toBody(fields, { 'Cliente.Nif': '12345678Z', 'Cliente.Nombre': '', 'Potencias.P1': 4.6, Confirmacion: 'x' })).toEqual({
      Cliente: { Nif: '12345678Z', Nombre: null },
      Potencias: { P1: 4.6 },
    })
  })
  it('reads flat dotted form values and nested answers alike', () => {
    expect(getPath({ 'Cliente.Tipo': 'fisica' }, 'Cliente.Tipo')).toBe('fisica')
    expect(getPath({ Cliente: { Provincia: { Id: 28 } } }, 'Cliente.Provincia.Id')).toBe(28)
    expect(resolveValue('{values.Cliente.Tipo}', { values: { 'Cliente.Tipo': 'juridica' } })).toBe('juridica')
    expect(resolveValue('{selected.Id}', { selected: [{ Id: 3 }, { Id: 7 }] })).toEqual([3, 7])
  })
})
