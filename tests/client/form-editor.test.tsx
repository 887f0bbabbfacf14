// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SHIPPED_CATALOGUE } from '../../schemas/catalogue/index'
import type { FormNode } from '../../schemas/screen'
import { FormEditor } from '../../client/widgets/screen-studio/structure/FormEditor'
import { setLanguage } from '../../client/i18n/i18n'

/** The catalogue as `GET /bff/admin/catalogue` serves it: the session calls, with their parameters and answer shapes. */
const catalogue = Object.values(SHIPPED_CATALOGUE)
  .flatMap((file) => (file as { calls: Record<string, unknown>[] }).calls)
  .filter((c) => !c.access || c.access === 'session')
  .map(({ id, method, path, summary, effect, query, list, shape, answer }) => ({ id, method, path, summary, effect, query, list, shape, answer }))

const small: FormNode = {
  type: 'form',
  id: 'pagador',
  fields: [{ name: 'Titular', label: { es: 'Titular', en: 'Holder' }, input: 'text', required: true }],
  submit: { method: 'POST', endpoint: 'api/contract/insert', body: 'values' },
}

let changes: FormNode[] = []

function Harness({ initial }: { initial: FormNode }) {
  const [form, setForm] = useState(initial)
  return (
    <FormEditor
      form={form}
      onChange={(next) => {
        changes.push(next)
        setForm(next)
      }}
    />
  )
}

function renderEditor(form: FormNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={client}>
      <Harness initial={form} />
    </QueryClientProvider>,
  )
}

/** Picks an option of the PrimeReact dropdown whose input has `id` (once it has its options: a loading one does not open). */
async function pick(id: string, option: RegExp) {
  const panel = await waitFor(() => {
    fireEvent.click(document.getElementById(id)!.closest('.p-dropdown')!)
    const open = document.querySelector<HTMLElement>('.p-dropdown-panel')
    if (!open) throw new Error(`the dropdown ${id} did not open`)
    return open
  })
  // The panel is still entering (its transition never ends in jsdom): its items count as hidden.
  fireEvent.click(within(panel).getByRole('option', { name: option, hidden: true }))
}

beforeEach(() => {
  changes = []
  setLanguage('es')
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (String(url).startsWith('/bff/admin/catalogue') ? new Response(JSON.stringify(catalogue), { headers: { 'content-type': 'application/json' } }) : new Response('', { status: 404 }))),
  )
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

describe('FormEditor', () => {
  it('adds a field, labels it and gives it the catalogue’s NIF validator: the form node says so', async () => {
    renderEditor(small)
    fireEvent.change(screen.getByLabelText('Nombre del campo nuevo'), { target: { value: 'Pagador.Nif' } })
    fireEvent.click(screen.getByRole('button', { name: 'Añadir campo' }))
    const editor = await screen.findByRole('region', { name: 'Campo Pagador.Nif' })
    fireEvent.change(within(editor).getByLabelText('Etiqueta (español)', { exact: false }), { target: { value: 'NIF del pagador' } })
    fireEvent.change(within(editor).getByLabelText('Etiqueta (inglés)'), { target: { value: 'Payer tax id' } })
    fireEvent.click(within(editor).getByLabelText('No se envía en el cuerpo'))
    // The validator list is the catalogue's.
    await pick('pagador-field-1-validator', /^NIF — /)

    const form = changes.at(-1)!
    expect(form.fields).toHaveLength(2)
    expect(form.fields[0]).toEqual(small.fields[0])
    expect(form.fields[1]).toEqual({
      name: 'Pagador.Nif',
      label: { es: 'NIF del pagador', en: 'Payer tax id' },
      input: 'text',
      validator: { endpoint: 'api/validators/nif', param: 'nif', validField: 'Valido', messageField: 'Motivo', normalizedField: 'Normalizado' },
      exclude: true,
    })
    expect(form.submit).toEqual(small.submit)
    expect(within(editor).getByText(/GET api\/validators\/nif\?nif=… · válido si «Valido» · motivo en «Motivo»/)).toBeTruthy()
  })

  it('refuses a name taken by another field, and an empty Spanish label, saying why and changing nothing', async () => {
    renderEditor(small)
    fireEvent.change(screen.getByLabelText('Nombre del campo nuevo'), { target: { value: 'Titular' } })
    fireEvent.click(screen.getByRole('button', { name: 'Añadir campo' }))
    expect(await screen.findByText('Ya hay un campo «Titular» en este formulario.')).toBeTruthy()
    expect(changes).toEqual([])

    fireEvent.click(screen.getByRole('button', { name: 'Editar Titular' }))
    const editor = await screen.findByRole('region', { name: 'Campo Titular' })
    fireEvent.change(within(editor).getByLabelText('Etiqueta (español)', { exact: false }), { target: { value: '' } })
    expect(within(editor).getByText('El texto en español no puede quedar vacío.')).toBeTruthy()
    const name = within(editor).getByLabelText('Nombre del campo', { exact: false })
    fireEvent.change(name, { target: { value: '9Titular' } })
    fireEvent.blur(name)
    expect(within(editor).getByText(/El nombre «9Titular» no vale/)).toBeTruthy()
    expect(changes).toEqual([])
  })

  it('with steps, a field left in no step is flagged next to it in Spanish', async () => {
    renderEditor({ ...small, fields: [...small.fields, { name: 'Iban', label: 'IBAN', input: 'text' }], steps: [{ key: 'titular', title: 'Titular', fields: ['Titular'] }] })
    expect(await screen.findByText('El campo «Iban» no está en ningún paso: no se mostraría nunca. Asígnalo a un paso.')).toBeTruthy()
    expect(screen.getByText('1 problemas en este formulario: están señalados junto a lo que afectan.')).toBeTruthy()
    await pick('pagador-field-1-step', /^Titular$/)
    expect(changes.at(-1)!.steps).toEqual([{ key: 'titular', title: 'Titular', fields: ['Titular', 'Iban'] }])
    await waitFor(() => expect(screen.queryByText(/no está en ningún paso/)).toBeNull())
  })
})
