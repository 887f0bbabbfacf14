import { describe, expect, it } from 'vitest'
import { SHIPPED_CATALOGUE } from '../../schemas/catalogue/index'
import type { FormNode, ScreenFile } from '../../schemas/screen'
import type { CatalogueCall } from '../../client/api/screen-admin'
import {
  callAt,
  dependencyOf,
  fieldOfDesign,
  formDesign,
  formOfDesign,
  formProblems,
  formSchemaProblem,
  formsOfScreen,
  itemShape,
  nameProblem,
  optionsFromCall,
  renameField,
  sampledItem,
  textOf,
  validatorCalls,
  validatorFromCall,
  valueFor,
  withDependency,
  withField,
  withFormAt,
  withNewField,
  withNewStep,
  withoutStep,
  withSteps,
  withStepKey,
} from '../../client/widgets/screen-studio/structure/form-design'
import { SHIPPED_SCREENS_DIR } from '../../server/manifest/manifest-data'
import { loadScreens } from '../../server/screens/screen-loader'

/** The catalogue as the studio gets it (`GET /bff/admin/catalogue` serves these calls' fields). */
const calls = Object.values(SHIPPED_CATALOGUE).flatMap((file) => (file as { calls: CatalogueCall[] }).calls)
const call = (path: string) => calls.find((c) => c.path === path)!

const shipped = loadScreens(SHIPPED_SCREENS_DIR).get('contrato-alta')!
const alta = formsOfScreen(shipped)[0]!
const title = (n: number) => ({ es: `Paso ${n}`, en: `Step ${n}` })

const small: FormNode = {
  type: 'form',
  id: 'pagador',
  fields: [
    { name: 'TarifaId', label: 'Tarifa', input: 'select', options: { endpoint: 'api/utility/tarifas', valueField: 'Id', labelField: 'Nombre' } },
    { name: 'Nif', label: { es: 'NIF', en: 'Tax id' }, input: 'text' },
  ],
  submit: { method: 'POST', endpoint: 'api/contract/insert', body: 'values' },
}

describe('form design: a shipped form read and written back', () => {
  it('contrato-alta’s form comes back deep-equal when nothing is edited, and passes the schema', () => {
    expect(alta.pointer).toBe('/root/children/0')
    const back = formOfDesign(formDesign(alta.form), alta.form)
    expect(back).toEqual(alta.form)
    // Each field on its own too: what the editor does not show (lookup, check, pattern, notBelow…) rides along.
    for (const f of alta.form.fields) expect(fieldOfDesign(formDesign({ ...alta.form, fields: [f] }).fields[0]!)).toEqual(f)
    expect(formSchemaProblem(back)).toBeNull()
    expect(formProblems(back, calls)).toEqual([])
  })

  it('put back in its place, the screen is the shipped one; an edit lands in that form only', () => {
    expect(withFormAt(shipped, alta.pointer, alta.form)).toEqual(shipped)
    const edited = formOfDesign(withField(formDesign(alta.form), 0, { required: false }), alta.form)
    const screen = withFormAt(shipped, alta.pointer, edited)
    expect(formsOfScreen(screen)[0]!.form.fields[0]!.required).toBeUndefined()
    expect({ ...screen, root: shipped.root }).toEqual(shipped)
  })

  it('a plain-string text stays a string until it gets English; clearing both boxes removes it', () => {
    expect(textOf({ es: 'CUPS', en: '' }, 'CUPS')).toBe('CUPS')
    expect(textOf({ es: 'CUPS largo', en: '' }, 'CUPS')).toBe('CUPS largo')
    expect(textOf({ es: 'CUPS', en: 'Supply point' }, 'CUPS')).toEqual({ es: 'CUPS', en: 'Supply point' })
    expect(textOf({ es: '', en: '' }, { es: 'Ayuda' })).toBeUndefined()
  })
})

describe('form design: validators from the catalogue', () => {
  it('offers the three validation calls and derives each validator from its parameter and answer shape', () => {
    expect(validatorCalls(calls).map((c) => c.path).sort()).toEqual(['api/validators/cups', 'api/validators/iban', 'api/validators/nif'])
    for (const name of ['nif', 'iban', 'cups']) {
      expect(validatorFromCall(call(`api/validators/${name}`))).toEqual({ endpoint: `api/validators/${name}`, param: name, validField: 'Valido', messageField: 'Motivo', normalizedField: 'Normalizado' })
    }
    // What contrato-alta ships is exactly what the catalogue gives.
    const nif = alta.form.fields.find((f) => f.name === 'Cliente.Nif')!
    expect(validatorFromCall(call('api/validators/nif'))).toEqual(nif.validator)
  })

  it('a call without exactly one required parameter, or without a shape saying the verdict, gives none', () => {
    expect(validatorFromCall({ ...call('api/validators/nif'), query: {} })).toBeNull()
    expect(validatorFromCall({ ...call('api/validators/nif'), shape: 'utility.entries' })).toBeNull()
    expect(validatorFromCall({ ...call('api/validators/nif'), shape: undefined })).toBeNull()
  })

  it('a validator without its parameter, or not of the catalogue, is a problem of its field', () => {
    const form = formOfDesign(withField(formDesign(small), 1, { validator: { endpoint: 'api/validators/nif', param: '', validField: 'Valido', messageField: 'Motivo' } }), small)
    expect(formProblems(form, calls)).toMatchObject([{ field: 1, place: 'validator', code: 'problem.validatorParam' }])
    const unknown = formOfDesign(withField(formDesign(small), 1, { validator: { endpoint: 'api/validators/pasaporte', param: 'numero', validField: 'Valido', messageField: 'Motivo' } }), small)
    expect(formProblems(unknown, calls)).toMatchObject([{ field: 1, code: 'problem.validatorUnknown', vars: { endpoint: 'api/validators/pasaporte' } }])
    const wrongParam = formOfDesign(withField(formDesign(small), 1, { validator: { ...validatorFromCall(call('api/validators/nif'))!, param: 'cif' } }), small)
    expect(formProblems(wrongParam, calls)).toMatchObject([{ field: 1, code: 'problem.validatorParamUnknown', vars: { param: 'cif' } }])
  })
})

describe('form design: options from catalogued calls', () => {
  it('reads an item’s fields from the answer shape: a plain list, or the Items of a page', () => {
    expect(itemShape(call('api/utility/provincias'))).toEqual({ path: '', fields: ['Id', 'Codigo', 'Nombre'] })
    expect(itemShape(call('api/agentes'))).toMatchObject({ path: 'Items' })
    expect(itemShape(call('api/agentes'))!.fields).toContain('Nombre')
    expect(itemShape(call('api/validators/nif'))).toBeNull()
  })

  it('proposes value and label fields from a sampled item of a real answer; a page asks for 500 at once', () => {
    const sample = sampledItem({ Items: [{ Id: 3, Codigo: 'A1', Nombre: 'Ana', Provincia: { Id: 1 } }], TotalCount: 1 }, '')!
    expect(sample).toEqual({ path: 'Items', item: { Id: 3, Codigo: 'A1', Nombre: 'Ana', Provincia: { Id: 1 } }, fields: ['Id', 'Codigo', 'Nombre'] })
    const source = optionsFromCall(call('api/agentes'), sample.fields, sample.path)
    expect(source).toMatchObject({ endpoint: 'api/agentes', path: 'Items', valueField: 'Id', labelField: 'Nombre', params: { pageSize: 500 } })
    expect(sampledItem([], '')).toBeNull()
  })

  it('a dependency becomes a {values.<Field>} parameter, replaces the previous one and keeps the others', () => {
    const params = withDependency({ pageSize: 500 }, { field: 'TarifaId', param: 'tarifa' })
    expect(params).toEqual({ pageSize: 500, tarifa: '{values.TarifaId}' })
    expect(dependencyOf(params)).toEqual({ field: 'TarifaId', param: 'tarifa' })
    expect(withDependency(params, { field: 'Cups', param: 'cups' })).toEqual({ pageSize: 500, cups: '{values.Cups}' })
    expect(withDependency(params, null)).toEqual({ pageSize: 500 })
    expect(dependencyOf({ tarifa: 'fija {values.TarifaId}' })).toBeNull()
  })

  it('dependent options on a catalogued call: a parameter it does not take, a missing field or itself are problems', () => {
    const d = formDesign(small)
    const source = { ...optionsFromCall(call('api/energia/preciofijo'), ['Tarifa'], ''), params: withDependency({}, { field: 'TarifaId', param: 'tarifa' }) }
    const good = formOfDesign(withField(withField(d, 1, { input: 'select', options: { kind: 'call', source } }), 0, {}), small)
    expect(good.fields[1]!.options).toMatchObject({ endpoint: 'api/energia/preciofijo', params: { tarifa: '{values.TarifaId}' } })
    expect(formProblems(good, calls).filter((p) => p.field === 1)).toEqual([])

    const missing = formOfDesign(withField(d, 1, { input: 'select', options: { kind: 'call', source: { ...source, params: { tarifa: '{values.Tarifa}' } } } }), small)
    expect(formProblems(missing, calls)).toMatchObject([{ field: 1, code: 'problem.dependsMissing', vars: { field: 'Tarifa' } }])
    const self = formOfDesign(withField(d, 1, { input: 'select', options: { kind: 'call', source: { ...source, params: { tarifa: '{values.Nif}' } } } }), small)
    expect(formProblems(self, calls)).toMatchObject([{ field: 1, code: 'problem.dependsSelf' }])
    const wrong = formOfDesign(withField(d, 1, { input: 'select', options: { kind: 'call', source: { ...source, params: { precio: '{values.TarifaId}' } } } }), small)
    expect(formProblems(wrong, calls).map((p) => p.code)).toEqual(['problem.optionsParam', 'problem.optionsRequired'])
  })

  it('renaming a field renames what depends on it: options, conditions, steps, lookups', () => {
    const renamed = renameField(alta.form, 'TarifaId', 'Tarifa')
    expect(renamed.fields.find((f) => f.name === 'Potencias.P3')!.visibleWhen).toEqual({ field: 'values.Tarifa', notIn: [1] })
    expect(renamed.steps![2]!.fields[0]).toBe('Tarifa')
    const panel = renamed.steps![2]!.nodes![0] as { source: { params: Record<string, string> } }
    expect(panel.source.params).toEqual({ tarifa: '{values.Tarifa}' })
    expect(formProblems(renamed, calls)).toEqual([])
    const nif = renameField(alta.form, 'Iban', 'Cuenta.Iban')
    expect(nif.fields.find((f) => f.name === 'Cliente.Nif')!.lookup!.fill['Cuenta.Iban']).toBe('Iban')
    expect(renameField(alta.form, 'Cliente.Tipo', 'Titular.Tipo').fields[2]!.visibleWhen).toEqual({ field: 'values.Titular.Tipo', equals: 'fisica' })
  })
})

describe('form design: steps', () => {
  it('a field in no step is a problem of that field; steps on puts every field in the first step', () => {
    const withStepsOn = withSteps(formDesign(small), true, title)
    const form = formOfDesign(withStepsOn, small)
    expect(form.steps).toEqual([{ key: 'paso1', title: { es: 'Paso 1', en: 'Step 1' }, fields: ['TarifaId', 'Nif'] }])
    expect(formProblems(form, calls)).toEqual([])

    const two = withNewStep(withStepsOn, title)
    const moved = formOfDesign(withField(two, 1, { step: 'paso2' }), small)
    expect(moved.steps!.map((s) => s.fields)).toEqual([['TarifaId'], ['Nif']])

    const orphan = formOfDesign(withoutStep(withField(two, 1, { step: 'paso2' }), 1), small)
    expect(orphan.steps!.map((s) => s.key)).toEqual(['paso1'])
    expect(formProblems(orphan, calls)).toMatchObject([{ field: 1, place: 'step', code: 'problem.noStep', vars: { field: 'Nif' }, severity: 'error' }])
  })

  it('a new field goes to the last step; a step’s new key takes its fields along; steps off removes the review too', () => {
    const d = withNewField(formDesign(alta.form), 'Pagador.Nif')
    expect(d.fields.at(-1)).toMatchObject({ name: 'Pagador.Nif', label: { es: 'Pagador.Nif', en: '' }, step: 'banco' })
    const rekeyed = formOfDesign(withStepKey(d, 4, 'pago'), alta.form)
    expect(rekeyed.steps![4]).toMatchObject({ key: 'pago', fields: ['Iban', 'Observaciones', 'Pagador.Nif'] })
    const flat = formOfDesign(withSteps(d, false, title), alta.form)
    expect(flat.steps).toBeUndefined()
    expect(flat.review).toBeUndefined()
  })

  it('a step naming no field, an empty step and two steps with one key are problems of the step', () => {
    const form: FormNode = {
      ...small,
      steps: [
        { key: 'a', title: 'A', fields: ['TarifaId', 'Nif', 'Otro'] },
        { key: 'a', title: 'B', fields: [] },
      ],
    }
    expect(formProblems(form, calls).map((p) => [p.step, p.code, p.severity])).toEqual([
      [0, 'problem.stepUnknownField', 'error'],
      [1, 'problem.stepKeyDuplicate', 'error'],
      [1, 'problem.stepEmpty', 'warning'],
    ])
  })
})

describe('form design: names, values, the schema and the submit', () => {
  it('a name must match the schema’s pattern and be the only one of the form', () => {
    expect(nameProblem(small, 1, 'Pagador.Nif')).toBeNull()
    expect(nameProblem(small, 1, '1Nif')).toEqual({ code: 'name.invalid', vars: { name: '1Nif' } })
    expect(nameProblem(small, 1, 'TarifaId')).toEqual({ code: 'name.duplicate', vars: { name: 'TarifaId' } })
    expect(nameProblem(small, 0, 'TarifaId')).toBeNull()
  })

  it('a typed condition value takes the type of the other field’s options, of a checkbox or of a number', () => {
    const tipo = alta.form.fields.find((f) => f.name === 'Cliente.Tipo')!
    expect(valueFor(tipo, 'fisica')).toBe('fisica')
    expect(valueFor({ name: 'X', label: 'X', input: 'select', options: [{ value: 1, label: '2.0TD' }] }, '1')).toBe(1)
    expect(valueFor({ name: 'X', label: 'X', input: 'checkbox' }, 'true')).toBe(true)
    expect(valueFor({ name: 'X', label: 'X', input: 'number' }, '4.5')).toBe(4.5)
    expect(valueFor(undefined, '4.5')).toBe('4.5')
  })

  it('a change the schema refuses is named in Spanish with its place in the form and its field', () => {
    const bad = formOfDesign(withField(formDesign(small), 1, { label: { es: '', en: 'Tax id' } }), small)
    const problem = formSchemaProblem(bad)!
    expect(problem.field).toBe(1)
    expect(problem.text).toMatch(/^\/fields\/1\/label/)
    expect(problem.text).toMatch(/debe|deben|caracteres/)
  })

  it('the submit call must be a catalogued mutation of that method', () => {
    expect(callAt(calls, 'POST', 'api/contract/insert')?.effect).toBe('mutation')
    const d = formDesign(small)
    const wrong = formOfDesign({ ...d, submit: { ...d.submit, endpoint: 'api/utility/tarifas' } }, small)
    expect(formProblems(wrong, calls)).toMatchObject([{ place: 'submit', code: 'problem.submitUnknown' }])
    const toast = formOfDesign({ ...d, submit: { ...d.submit, toast: { es: 'Hecho', en: 'Done' } } }, small)
    expect(toast.after).toEqual({ toast: { es: 'Hecho', en: 'Done' } })
    expect(formOfDesign({ ...formDesign(toast), submit: { ...formDesign(toast).submit, toast: { es: '', en: '' } } }, toast).after).toBeUndefined()
  })

  it('finds forms anywhere in a screen, an action’s dialog form too', () => {
    const screen = {
      schemaVersion: 2,
      id: 'x',
      title: 'X',
      root: { type: 'page', children: [{ type: 'action', action: { id: 'nuevo', label: 'Nuevo', kind: 'form', form: small } }] },
    } as ScreenFile
    expect(formsOfScreen(screen).map((f) => f.pointer)).toEqual(['/root/children/0/action/form'])
  })
})
