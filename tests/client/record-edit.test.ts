import { describe, expect, it } from 'vitest'
import type { Field } from '../../schemas/screen'
import { conflictsOf, reapplied, recordWithValues } from '../../client/renderer/form/record-edit'

const field = (name: string): Field => ({ name, label: name, input: 'text' }) as Field
const fields = [field('Iban'), field('Cliente.Email'), field('Cliente.Municipio'), field('Cliente.ProvinciaId')]
const map = { 'Cliente.ProvinciaId': 'Cliente.Provincia.Id' }
const base = { Id: 7, Iban: 'ES1', Cliente: { Email: 'a@x.es', Municipio: 'Madrid', Provincia: { Id: 28, Nombre: 'Madrid' }, Nif: '1Z' } }

describe('editing a versioned record', () => {
  it('sends the record as loaded with the form values at their paths, the rest untouched', () => {
    const body = recordWithValues(base, fields, map, { Iban: 'ES2', 'Cliente.Email': 'b@x.es', 'Cliente.Municipio': 'Madrid', 'Cliente.ProvinciaId': 8 })
    expect(body).toEqual({ Id: 7, Iban: 'ES2', Cliente: { Email: 'b@x.es', Municipio: 'Madrid', Provincia: { Id: 8, Nombre: 'Madrid' }, Nif: '1Z' } })
    expect(base.Cliente.Provincia.Id).toBe(28)
    // A submit body nests dotted names: the same record comes out.
    const nested = recordWithValues(base, fields, map, { Iban: 'ES2', Cliente: { Email: 'b@x.es', Municipio: 'Madrid', ProvinciaId: 8 } })
    expect(nested).toEqual(body)
  })

  it('lists the fields the other person changed, theirs beside yours, and re-applies only what you changed', () => {
    const theirs = { ...base, Iban: 'ES9', Cliente: { ...base.Cliente, Municipio: 'Getafe' } }
    const yours = { Iban: 'ES1', 'Cliente.Email': 'mio@x.es', 'Cliente.Municipio': 'Alcorcón', 'Cliente.ProvinciaId': 28 }
    const conflicts = conflictsOf(fields, map, base, theirs, yours)
    expect(conflicts.map((c) => [c.field.name, c.theirs, c.yours, c.touchedByYou])).toEqual([
      ['Iban', 'ES9', 'ES1', false],
      ['Cliente.Municipio', 'Getafe', 'Alcorcón', true],
    ])
    // Your e-mail and municipality stay; the IBAN you did not touch becomes theirs.
    expect(reapplied(fields, map, base, theirs, yours)).toEqual({ Iban: 'ES9', 'Cliente.Email': 'mio@x.es', 'Cliente.Municipio': 'Alcorcón', 'Cliente.ProvinciaId': 28 })
  })
})
