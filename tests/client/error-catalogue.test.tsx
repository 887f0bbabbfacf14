// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query'
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import fs from 'node:fs'
import path from 'node:path'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { SHIPPED_CATALOGUE } from '../../schemas/catalogue/index'
import { CallIndex } from '../../schemas/catalogue/match'
import type { ActionSpec, ScreenNode } from '../../schemas/screen'
import { errorSpecOf } from '../../client/api/call-catalogue'
import { ApiError } from '../../client/api/client'
import { reportError } from '../../client/api/errors'
import { setLanguage } from '../../client/i18n/i18n'
import { createQueryClient } from '../../client/api/query-client'
import { registerToastSink, type ToastMessage } from '../../client/api/toast'
import { ActionButton } from '../../client/renderer/actions/ActionButton'
import { ScreenRenderer } from '../../client/renderer/ScreenRenderer'

const catalogue = new CallIndex(Object.values(SHIPPED_CATALOGUE).flatMap((f) => (f as { calls: Endpoint[] }).calls))

let toasts: ToastMessage[] = []
beforeEach(() => {
  toasts = []
  registerToastSink((m) => toasts.push(m))
})
afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  registerToastSink(null)
})

/** The app's own query client: its caches are where query and mutation failures are toasted. */
function wrap(ui: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  )
}

/** Every call answers this (a 404 is not retried, so a failing GET answers once). */
function answer(status: number, body = '', type = 'text/plain') {
  const fetchMock = vi.fn(async () => new Response(body, { status, headers: { 'content-type': type } }))
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const penalty: ScreenNode = {
  type: 'detail',
  title: { es: 'Penalización por baja anticipada' },
  source: { endpoint: 'api/contract/penalizacion', params: { codigoContrato: 'EV-2026-000123' } },
  sections: [{ fields: [{ field: 'Importe', label: 'Importe' }] }],
}

describe('errorSpecOf', () => {
  it("gives the catalogue's area and message of the failed call, by method and path", async () => {
    expect(await errorSpecOf(new ApiError(500, null, '/api/contract/id', 'GET'))).toEqual({ area: 'Contrato', message: 'No se han podido obtener los datos del contrato.' })
    // a path parameter takes any one segment; a static call wins over a template
    expect(await errorSpecOf(new ApiError(500, null, '/api/agentes/42', 'GET'))).toMatchObject({ area: 'Agentes' })
    expect(await errorSpecOf(new ApiError(500, null, '/api/agentes/export', 'GET'))).toEqual({ area: 'Agentes', message: 'Error al exportar los datos.' })
    // the method is part of the call
    expect(await errorSpecOf(new ApiError(500, null, '/api/contract/id', 'DELETE'))).toBeNull()
  })

  it('speaks the interface’s language', async () => {
    setLanguage('en')
    try {
      expect(await errorSpecOf(new ApiError(500, null, '/api/contract/id', 'GET'))).toEqual({ area: 'Contract', message: "The contract's data could not be loaded." })
    } finally {
      setLanguage('es')
    }
  })

  it("knows nothing of the BFF's own paths", async () => {
    expect(await errorSpecOf(new ApiError(500, null, '/bff/manifest', 'GET'))).toBeNull()
    expect(await errorSpecOf(new ApiError(500, null, '/bff/admin/users/7/sessions', 'DELETE'))).toBeNull()
  })
})

describe('failure toasts read the endpoint catalogue', () => {
  it("a failed call with no server text gets the catalogue's area and message, in the toast and on the page", async () => {
    answer(404)
    wrap(<ScreenRenderer node={penalty} />)
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ severity: 'error', summary: 'Contrato', detail: 'No se pudieron obtener los datos de penalización.', life: 3000 })
    expect((await screen.findByRole('alert')).textContent).toBe('No se pudieron obtener los datos de penalización.')
  })

  it("a screen's explicit errorArea and errorMessage win over the catalogue's", async () => {
    answer(404)
    wrap(<ScreenRenderer node={{ ...penalty, errorArea: 'Penalización' } as ScreenNode} />)
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Penalización', detail: 'No se pudieron obtener los datos de penalización.' })
    cleanup()
    toasts = []
    wrap(<ScreenRenderer node={{ ...penalty, errorMessage: 'Sin penalización que mostrar.' } as ScreenNode} />)
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Contrato', detail: 'Sin penalización que mostrar.' })
  })

  it("a screen's errorArea and errorMessage in both languages are shown in the interface's", async () => {
    const bilingual = { ...penalty, errorArea: { es: 'Penalización', en: 'Penalty' }, errorMessage: { es: 'Sin penalización que mostrar.', en: 'No penalty to show.' } } as ScreenNode
    answer(404)
    wrap(<ScreenRenderer node={bilingual} />)
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Penalización', detail: 'Sin penalización que mostrar.' })
    expect((await screen.findByRole('alert')).textContent).toBe('Sin penalización que mostrar.')
    cleanup()
    toasts = []
    setLanguage('en')
    try {
      wrap(<ScreenRenderer node={bilingual} />)
      await waitFor(() => expect(toasts).toHaveLength(1))
      expect(toasts[0]).toMatchObject({ summary: 'Penalty', detail: 'No penalty to show.' })
      expect((await screen.findByRole('alert')).textContent).toBe('No penalty to show.')
    } finally {
      setLanguage('es')
    }
  })

  it("the server's text wins over both", async () => {
    answer(409, 'El contrato no tiene penalización calculada.')
    wrap(<ScreenRenderer node={{ ...penalty, errorArea: 'Penalización', errorMessage: 'Sin penalización que mostrar.' } as ScreenNode} />)
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Penalización', detail: 'El contrato no tiene penalización calculada.' })
  })

  it('a failure of a BFF path gets the last resort: the node title and its usual message', async () => {
    answer(404)
    wrap(<ScreenRenderer node={{ ...penalty, title: { es: 'Tus accesos ahora' }, source: { endpoint: 'bff/auth/session' } } as ScreenNode} />)
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Tus accesos ahora', detail: 'No se han podido obtener los datos.' })
  })

  it("an action is titled by the catalogue's area, its label only for a BFF path", async () => {
    answer(500)
    const sign: ActionSpec = { id: 'firma', label: 'Enviar a firma', kind: 'call', call: { method: 'PUT', endpoint: 'api/contract/update/situacion-firma', params: { codigoContrato: 'EV-1' } } }
    wrap(<ActionButton action={sign} />)
    fireEvent.click(screen.getByRole('button', { name: 'Enviar a firma' }))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Contrato', detail: 'No se han podido enviar a firma electrónica.' })
    cleanup()
    toasts = []
    const close: ActionSpec = { id: 'cerrar', label: 'Cerrar sesiones', kind: 'call', call: { method: 'DELETE', endpoint: 'bff/admin/users/7/sessions' } }
    wrap(<ActionButton action={close} />)
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar sesiones' }))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Cerrar sesiones', detail: 'Ha ocurrido un error en la solicitud.' })
  })

  it("an action's success is titled like its failures: by the catalogue's area when the screen names none", async () => {
    answer(200, '')
    const renew: ActionSpec = { id: 'renovar', label: 'Renovar', kind: 'call', call: { method: 'POST', endpoint: 'api/renovaciones/renovar' }, success: 'Contrato renovado.' }
    wrap(<ActionButton action={renew} />)
    fireEvent.click(screen.getByRole('button', { name: 'Renovar' }))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ severity: 'success', summary: 'Renovaciones', detail: 'Contrato renovado.' })
  })

  it("a widget's call reported without literals gets the catalogue's; one with its own title keeps it", async () => {
    reportError(undefined, new ApiError(500, null, '/api/bateria/oferta', 'POST'))
    await waitFor(() => expect(toasts).toHaveLength(1))
    expect(toasts[0]).toMatchObject({ summary: 'Baterías', detail: 'No se ha podido generar la oferta.' })
    reportError('OMIE', new ApiError(500, null, '/api/energia/ultima-fecha', 'GET'))
    await waitFor(() => expect(toasts).toHaveLength(2))
    expect(toasts[1]).toMatchObject({ summary: 'OMIE', detail: 'No se han podido obtener los datos de OMIE.' })
    // no call to look up, no title given: the last resort of all
    reportError(undefined, new Error('boom'))
    expect(toasts[2]).toMatchObject({ summary: 'Error', detail: 'Ha ocurrido un error en la solicitud.' })
  })

  it('a session that ended (401) and an abort are never toasted', async () => {
    reportError(undefined, new ApiError(401, null, '/api/contract/id', 'GET'))
    reportError(undefined, Object.assign(new Error('aborted'), { name: 'AbortError' }))
    await new Promise((r) => setTimeout(r, 50))
    expect(toasts).toEqual([])
  })
})

// ── every call path the client spells out is a catalogued call ──────────────

const CLIENT_DIR = path.resolve(__dirname, '../../client')

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name)
    if (e.isDirectory()) return sources(full)
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : []
  })
}

/** The top-level arguments of the call whose `(` is at `open`, as source text. */
function argumentsAt(text: string, open: number): string[] {
  const args: string[] = []
  let depth = 0
  let start = open + 1
  let i = open
  const closers: string[] = []
  for (; i < text.length; i++) {
    const c = text[i]!
    if (c === "'" || c === '"') {
      for (i++; text[i] !== c; i++) if (text[i] === '\\') i++
      continue
    }
    if (c === '`') {
      // A template literal; `${…}` inside may hold anything, braces included.
      for (i++; text[i] !== '`'; i++) {
        if (text[i] === '\\') i++
        else if (text[i] === '$' && text[i + 1] === '{') {
          let inner = 1
          for (i += 2; inner > 0; i++) inner += text[i] === '{' ? 1 : text[i] === '}' ? -1 : 0
          i--
        }
      }
      continue
    }
    if (c === '(' || c === '[' || c === '{') {
      closers.push(c)
      depth++
    } else if (c === ')' || c === ']' || c === '}') {
      closers.pop()
      depth--
      if (depth === 0) {
        args.push(text.slice(start, i).trim())
        return args
      }
    } else if (c === ',' && depth === 1) {
      args.push(text.slice(start, i).trim())
      start = i + 1
    }
  }
  throw new Error('unbalanced call')
}

/** The string and template literals of an expression; each `${…}` of a template stands for one value (a `{x}` placeholder). */
function literals(expr: string): string[] {
  const out: string[] = []
  for (const m of expr.matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\$]|\\.|\$(?!\{)|\$\{[^}]*\})*)`/g)) {
    out.push(m[1] ?? m[2] ?? (m[3] ?? '').replace(/\$\{[^}]*\}/g, '{x}'))
  }
  return out
}

/** Calls to the api client whose path is written in the source: api.get/post/put/patch/delete/download and send. */
function literalCalls(): { where: string; method: string; path: string }[] {
  const found: { where: string; method: string; path: string }[] = []
  for (const file of sources(CLIENT_DIR)) {
    if (file.endsWith(path.join('api', 'client.ts'))) continue // where they are defined
    const text = fs.readFileSync(file, 'utf8')
    const call = /(?<![.\w])(?:api\.(get|post|put|patch|delete|download)|(send))\s*(?:<(?:[^<>()]|<[^<>()]*>)*>)?\s*\(/g
    for (const m of text.matchAll(call)) {
      const args = argumentsAt(text, m.index + m[0].length - 1)
      const line = text.slice(0, m.index).split('\n').length
      const where = `${path.relative(CLIENT_DIR, file)}:${line}`
      let method: string
      let pathArg: string
      if (m[2]) {
        // send(method, path, …): only a written method names a call.
        const written = /^'([A-Z]+)'$/.exec(args[0] ?? '')
        if (!written) continue
        method = written[1]!
        pathArg = args[1] ?? ''
      } else if (m[1] === 'download') {
        method = /method:\s*'(GET|POST)'/.exec(args[1] ?? '')?.[1] ?? 'GET'
        pathArg = args[0] ?? ''
      } else {
        method = m[1]!.toUpperCase()
        pathArg = args[0] ?? ''
      }
      for (const p of literals(pathArg)) if (/^\/?api\//.test(p)) found.push({ where, method, path: p })
    }
  }
  return found
}

describe("the client's calls", () => {
  const calls = literalCalls()

  it('are found in the source (the scan reads what it should)', () => {
    expect(calls.length).toBeGreaterThan(40)
    expect(calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/sips/export/list' }))
    expect(calls).toContainEqual(expect.objectContaining({ method: 'GET', path: '/api/comparador/comparativas/{x}' }))
    expect(calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/bateria/contrato' }))
  })

  it('each name a catalogued call of that method a browser may make (the BFF refuses any other)', () => {
    const unknown = calls.filter((c) => {
      const call = catalogue.findTemplate(c.method, c.path)
      return !call || call.access === 'bff'
    })
    expect(unknown.map((c) => `${c.where}: ${c.method} ${c.path}`)).toEqual([])
  })
})
