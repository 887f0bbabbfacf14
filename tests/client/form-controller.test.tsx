// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Field, FormNode } from '../../schemas/screen'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
import type { SavedDraft } from '../../client/renderer/form/use-draft'
import { useFormController, useFormSource, type FormControllerOptions } from '../../client/renderer/form/use-form-controller'

const fields: Field[] = [
  { name: 'Nif', label: 'NIF', input: 'text', required: true },
  { name: 'Contacto.Email', label: 'Correo', input: 'email', required: true },
  { name: 'Repetir', label: 'Repite el correo', input: 'email', sameAs: { field: 'Contacto.Email', message: 'Los correos no coinciden.' }, exclude: true },
  { name: 'Potencia', label: 'Potencia', input: 'number', min: 1, max: 15 },
  { name: 'Acepta', label: 'Acepto', input: 'checkbox', required: true },
]

/** A contract sign-up as a screen declares it: two steps, a review, a draft, a submit that leads to the new contract. */
const form: FormNode = {
  type: 'form',
  id: 'alta',
  fields,
  steps: [
    { key: 'titular', title: 'Titular', fields: ['Nif', 'Contacto.Email', 'Repetir'] },
    { key: 'suministro', title: 'Suministro', fields: ['Potencia', 'Acepta'] },
  ],
  review: { title: 'Revisión' },
  draft: { key: 'contrato-alta' },
  submit: { method: 'POST', endpoint: 'api/contract/insert', body: 'values' },
  after: { toast: 'Contrato {result.CodigoContrato} creado.', navigate: '/soluciones/contratos/{result.CodigoContrato}' },
  errorArea: 'Contratos',
  errorMessage: 'No se ha podido crear el contrato.',
}

const right = { Nif: '12345678Z', 'Contacto.Email': 'ana@example.es', Repetir: 'ana@example.es', Potencia: 4.6, Acepta: true }

function harness(node: FormNode, opts: Partial<FormControllerOptions> = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const focused: string[] = []
  const focusStep = vi.fn()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/soluciones/contratos/alta']}>{children}</MemoryRouter>
    </QueryClientProvider>
  )
  const view = renderHook(
    () => ({
      form: useFormController(node, { loaded: undefined, draft: null, area: node.errorArea, lastArea: 'Alta', focusField: (f) => focused.push(f.name), focusStep, ...opts }),
      location: useLocation(),
    }),
    { wrapper },
  )
  return { ...view, focused, focusStep }
}

/** Types every value, as the view's inputs would. */
function typeAll(form: { setValue(name: string, value: unknown): void }, values: Record<string, unknown>) {
  act(() => {
    for (const [name, value] of Object.entries(values)) form.setValue(name, value)
  })
}

let toasts: ToastMessage[] = []
beforeEach(() => {
  toasts = []
  registerToastSink((m) => toasts.push(m))
})
afterEach(async () => {
  cleanup()
  // Leaving a form saves what waits in its draft: that request ends against this test's upstream.
  await new Promise((resolve) => setTimeout(resolve, 20))
  vi.unstubAllGlobals()
  registerToastSink(null)
})

describe('useFormController', () => {
  it('starts from empty values of each kind and shows a rule error only once the field was left or the form tried', () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 404 })))
    const { result } = harness({ ...form, steps: undefined, review: undefined })
    expect(result.current.form.values).toEqual({ Nif: null, 'Contacto.Email': null, Repetir: null, Potencia: null, Acepta: false })
    const email = fields[1]!
    act(() => result.current.form.setValue('Contacto.Email', 'ana@'))
    expect(result.current.form.errors['Contacto.Email']).toBe('Introduce un correo electrónico válido.')
    expect(result.current.form.errorOf(email)).toBeUndefined()
    act(() => result.current.form.touch('Contacto.Email'))
    expect(result.current.form.errorOf(email)).toBe('Introduce un correo electrónico válido.')
    typeAll(result.current.form, { 'Contacto.Email': 'ana@example.es', Repetir: 'otra@example.es', Potencia: 20 })
    expect(result.current.form.errorOf(email)).toBeUndefined()
    expect(result.current.form.errors).toEqual({
      Nif: 'Este campo es obligatorio.',
      Repetir: 'Los correos no coinciden.',
      Potencia: 'El valor máximo es 15.',
      Acepta: 'Debes marcar esta casilla.',
    })
    expect(result.current.form.dirty).toBe(true)
  })

  it('moves on a step only when it is right, focusing the first wrong field, and ends on the review', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 404 })))
    const { result, focused, focusStep } = harness(form)
    expect(result.current.form.stepFields.map((f) => f.name)).toEqual(['Nif', 'Contacto.Email', 'Repetir'])
    expect(result.current.form.totalSteps).toBe(3)

    act(() => result.current.form.goTo(1))
    expect(result.current.form.stepIndex).toBe(0)
    expect(focused).toEqual(['Nif'])
    // Trying the step shows its errors without touching each field.
    expect(result.current.form.errorOf(fields[0]!)).toBe('Este campo es obligatorio.')

    typeAll(result.current.form, { Nif: right.Nif, 'Contacto.Email': right['Contacto.Email'], Repetir: right.Repetir })
    // The submit button is "Next" until the review.
    await act(() => result.current.form.submit())
    expect(result.current.form.stepIndex).toBe(1)
    expect(result.current.form.step?.key).toBe('suministro')
    await waitFor(() => expect(focusStep).toHaveBeenCalledTimes(1))

    typeAll(result.current.form, { Potencia: right.Potencia, Acepta: true })
    act(() => result.current.form.goTo(2))
    expect(result.current.form.onReview).toBe(true)
    expect(result.current.form.step).toBeNull()
    expect(result.current.form.stepFields).toEqual([])
    act(() => result.current.form.editStep(0))
    expect(result.current.form.stepIndex).toBe(0)
    // Going back never needs the step right.
    act(() => result.current.form.setValue('Nif', ''))
    act(() => result.current.form.goTo(0))
    expect(result.current.form.stepIndex).toBe(0)
  })

  it('sends the visible values shaped for the request, clears the draft and does what the form says after', async () => {
    const fetchMock = vi.fn(async (_input: string, _init?: RequestInit) => Response.json({ CodigoContrato: 'EV-2026-000777' }))
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness({ ...form, steps: undefined, review: undefined })
    typeAll(result.current.form, right)
    await act(() => result.current.form.submit())
    const submit = fetchMock.mock.calls.find(([url]) => url === '/api/contract/insert')
    expect(submit?.[1]?.method).toBe('POST')
    // Dotted names nest; excluded fields stay out.
    expect(JSON.parse(String(submit?.[1]?.body))).toEqual({ Nif: '12345678Z', Contacto: { Email: 'ana@example.es' }, Potencia: 4.6, Acepta: true })
    await waitFor(() => expect(fetchMock.mock.calls.some(([url, init]) => url === '/bff/drafts/contrato-alta' && init?.method === 'DELETE')).toBe(true))
    expect(toasts).toMatchObject([{ severity: 'success', summary: 'Contratos', detail: 'Contrato EV-2026-000777 creado.' }])
    expect(result.current.location.pathname).toBe('/soluciones/contratos/EV-2026-000777')
    expect(result.current.form.busy).toBe(false)
  })

  it('keeps every value the user typed when the submit fails, and stores them as the draft', async () => {
    const fetchMock = vi.fn(async (input: string, _init?: RequestInit) =>
      input === '/api/contract/insert' ? new Response('El CUPS ya tiene un contrato en vigor.', { status: 409, headers: { 'content-type': 'text/plain' } }) : new Response(null, { status: 204 }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness({ ...form, steps: undefined, review: undefined })
    typeAll(result.current.form, right)
    await act(() => result.current.form.submit())
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ severity: 'error', summary: 'Contratos', detail: 'El CUPS ya tiene un contrato en vigor.' })
    expect(result.current.form.values).toEqual({ Nif: '12345678Z', 'Contacto.Email': 'ana@example.es', Repetir: 'ana@example.es', Potencia: 4.6, Acepta: true })
    expect(result.current.form.busy).toBe(false)
    expect(result.current.form.dirty).toBe(true)
    expect(result.current.location.pathname).toBe('/soluciones/contratos/alta')
    const saved = fetchMock.mock.calls.find(([url, init]) => url === '/bff/drafts/contrato-alta' && init?.method === 'PUT')
    expect(JSON.parse(String(saved?.[1]?.body))).toEqual(right)
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false)
  })

  it('never sends while a rule or a server validator says a field is wrong', async () => {
    const fetchMock = vi.fn(async () => Response.json({ CodigoContrato: 'EV-2026-000778' }))
    vi.stubGlobal('fetch', fetchMock)
    const { result, focused } = harness(form)
    typeAll(result.current.form, right)
    act(() => result.current.form.setServerError('Nif', 'El NIF no es válido.'))
    act(() => result.current.form.goTo(2))
    expect(result.current.form.stepIndex).toBe(0)
    expect(focused).toEqual(['Nif'])

    act(() => result.current.form.setServerError('Nif', null))
    act(() => result.current.form.goTo(1))
    act(() => result.current.form.setValue('Acepta', false))
    act(() => result.current.form.editStep(2))
    // On the review, a wrong field takes the user back to its step.
    await act(() => result.current.form.submit())
    expect(result.current.form.submitted).toBe(true)
    expect(result.current.form.stepIndex).toBe(1)
    await waitFor(() => expect(focused).toEqual(['Nif', 'Acepta']))
    expect(result.current.form.errorOf(fields[4]!)).toBe('Debes marcar esta casilla.')
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('restores a draft over the starting values, and discarding it goes back to them', async () => {
    const fetchMock = vi.fn(async () => new Response(null, { status: 204 }))
    vi.stubGlobal('fetch', fetchMock)
    const draft: SavedDraft = { values: { Nif: '87654321X', Potencia: 3.3, Contraseña: 'nunca' }, savedAt: Date.UTC(2026, 10, 20, 9, 30) }
    const { result } = harness(form, { draft, loaded: { Nif: '12345678Z', Contacto: { Email: 'ana@example.es' } } })
    expect(result.current.form.values).toEqual({ Nif: '87654321X', 'Contacto.Email': 'ana@example.es', Repetir: null, Potencia: 3.3, Acepta: false })
    expect(result.current.form.restoredDraft).toBe(draft)
    expect(result.current.form.dirty).toBe(false)
    act(() => result.current.form.discardDraft())
    expect(result.current.form.values).toEqual({ Nif: '12345678Z', 'Contacto.Email': 'ana@example.es', Repetir: null, Potencia: null, Acepta: false })
    expect(result.current.form.restoredDraft).toBeNull()
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/bff/drafts/contrato-alta', expect.objectContaining({ method: 'DELETE' })))
    expect(toasts).toEqual([])
  })
})

describe('masked personal data in a loaded record (issue 16)', () => {
  // What the BFF answers a user: the NIF and e-mail masked, the rest clear.
  const record = { Nif: '*****678Z', Contacto: { Email: 'a****@example.es' }, Potencia: 4.6 }
  const nif: Field = { name: 'Nif', label: 'NIF', input: 'text', required: true, pattern: { regex: '^[0-9XYZ][0-9]{7}[A-Z]$', message: 'El NIF no es válido.' } }
  const edit: FormNode = {
    ...form,
    fields: [nif, ...fields.slice(1)],
    steps: undefined,
    review: undefined,
    draft: undefined,
    initial: { endpoint: 'api/contract/id' },
    submit: { method: 'PUT', endpoint: 'api/contract/update', body: 'values' },
  }

  it('an edit keeps a masked value as shown, without format errors, and sends it for the BFF to put back; a typed value is checked', async () => {
    const fetchMock = vi.fn(async (_input: string, _init?: RequestInit) => Response.json({}))
    vi.stubGlobal('fetch', fetchMock)
    const { result } = harness(edit, { loaded: record })
    expect(result.current.form.values.Nif).toBe('*****678Z')
    act(() => result.current.form.touch('Nif'))
    expect(result.current.form.errorOf(nif)).toBeUndefined()
    expect(result.current.form.uncopied).toEqual([])
    // Another masked-looking text is not the record's: the rules apply to it.
    act(() => result.current.form.setValue('Nif', '*****999Z'))
    expect(result.current.form.errorOf(nif)).toBe('El NIF no es válido.')
    act(() => result.current.form.setValue('Nif', '*****678Z'))
    expect(result.current.form.errorOf(nif)).toBeUndefined()
    act(() => result.current.form.setValue('Acepta', true))
    await act(() => result.current.form.submit())
    const sent = fetchMock.mock.calls.find(([url]) => url === '/api/contract/update')
    expect(JSON.parse(String(sent?.[1]?.body))).toMatchObject({ Nif: '*****678Z', Contacto: { Email: 'a****@example.es' } })
  })

  it('a copy into a new record leaves masked values empty, names them, and copies the rest', () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json({})))
    const { result } = harness({ ...form, steps: undefined, review: undefined, initial: { endpoint: 'api/contract/id', copy: true } }, { loaded: record })
    expect(result.current.form.values).toMatchObject({ Nif: null, 'Contacto.Email': null, Potencia: 4.6 })
    expect(result.current.form.uncopied.map((f) => f.name)).toEqual(['Nif', 'Contacto.Email'])
  })
})

describe('useFormSource', () => {
  it('is loading until the stored draft is read, then ready with it', async () => {
    const draft: SavedDraft = { values: { Nif: '87654321X' }, savedAt: Date.UTC(2026, 10, 20) }
    vi.stubGlobal('fetch', vi.fn(async () => Response.json(draft)))
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <MemoryRouter>{children}</MemoryRouter>
      </QueryClientProvider>
    )
    const { result } = renderHook(() => useFormSource(form, { lastArea: 'Alta' }), { wrapper })
    expect(result.current).toEqual({ status: 'loading', area: 'Contratos', lastArea: 'Alta' })
    await waitFor(() => expect(result.current.status).toBe('ready'))
    expect(result.current).toEqual({ status: 'ready', loaded: undefined, draft, area: 'Contratos', lastArea: 'Alta' })
  })
})
