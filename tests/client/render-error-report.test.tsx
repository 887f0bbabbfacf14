// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { Component, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fetchScreen } from '../../client/api/render-errors'
import { RenderErrorReporter } from '../../client/renderer/RenderErrorReporter'

/** A screen that fails to render is reported to the BFF with the version it was served as, and still reaches the app's error page. */

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

class Outer extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: undefined as unknown }
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  override render() {
    return this.state.error ? <p>página de error: {(this.state.error as Error).message}</p> : this.props.children
  }
}

function Broken({ error }: { error: Error }): ReactNode {
  throw error
}

function stubBff(version: string | null) {
  const calls: { method: string; url: string; body: unknown }[] = []
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ method: init.method ?? 'GET', url, body: init.body ? JSON.parse(String(init.body)) : undefined })
    if (init.method === 'POST') return new Response(JSON.stringify({ counted: true, fallback: false }), { status: 202, headers: { 'content-type': 'application/json' } })
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (version !== null) headers['x-screen-version'] = version
    return new Response(JSON.stringify({ id: 'estudio', title: 'Estudio', root: { type: 'markdown', content: 'x' } }), { status: 200, headers })
  })
  return calls
}

describe('a screen that fails to render', () => {
  it('is reported with its served version, and the error goes on to the app', async () => {
    const calls = stubBff('3')
    const fetched = await fetchScreen<{ id: string }>('estudio')
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    render(
      <Outer>
        <RenderErrorReporter screenId="estudio" screen={fetched}>
          <Broken error={new TypeError('x is undefined')} />
        </RenderErrorReporter>
      </Outer>,
    )
    expect(await screen.findByText('página de error: x is undefined')).toBeTruthy()
    expect(calls.filter((c) => c.method === 'POST')).toEqual([{ method: 'POST', url: '/bff/screens/estudio/render-error', body: { version: 3, message: 'x is undefined' } }])
  })

  it('is not reported when the failure is a newer build replacing the code, or the version is unknown', async () => {
    stubBff(null)
    const unversioned = await fetchScreen<{ id: string }>('estudio')
    // From here on every call the reporter could make lands in `calls`.
    const calls = stubBff('2')
    const versioned = await fetchScreen<{ id: string }>('estudio')
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    render(
      <Outer>
        <RenderErrorReporter screenId="estudio" screen={unversioned}>
          <Broken error={new Error('sin versión')} />
        </RenderErrorReporter>
      </Outer>,
    )
    expect(await screen.findByText('página de error: sin versión')).toBeTruthy()
    cleanup()
    render(
      <Outer>
        <RenderErrorReporter screenId="estudio" screen={versioned}>
          <Broken error={new TypeError('Failed to fetch dynamically imported module: /assets/x.js')} />
        </RenderErrorReporter>
      </Outer>,
    )
    expect(await screen.findByText(/página de error: Failed to fetch dynamically/)).toBeTruthy()
    expect(calls.filter((c) => c.method === 'POST')).toEqual([])
  })
})
