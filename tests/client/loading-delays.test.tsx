// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, cleanup, renderHook } from '@testing-library/react'
import { createElement, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Field } from '../../schemas/screen'
import { LOADING_CLEAR_DELAY, useDelayedFlag } from '../../client/api/use-delayed-flag'
import { useServerValidator } from '../../client/renderer/form/use-server-validator'
import { useCupsCheck } from '../../client/widgets/sips/use-cups-check'

/** Spec §9 loading-flag clear delays: 10 ms by default; 2000 ms (slow calls), 500 ms (validators), 1500 ms (client lookups). */

const nif: Field['validator'] = { endpoint: 'api/validators/nif', param: 'nif', validField: 'Valido', messageField: 'Motivo' }

/** Lets the fetch's promise and the state updates after it run, without moving the clock. */
const settle = () =>
  act(async () => {
    // Zero-delay timers included: React Query tells its observers through one.
    for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(0)
  })

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('useDelayedFlag', () => {
  it('rises at once and clears only after its delay, each of the spec’s', async () => {
    expect(LOADING_CLEAR_DELAY).toEqual({ default: 10, slow: 2000, validator: 500, clientLookup: 1500 })
    for (const delay of Object.values(LOADING_CLEAR_DELAY)) {
      const { result, rerender, unmount } = renderHook(({ active }) => useDelayedFlag(active, delay), { initialProps: { active: false } })
      rerender({ active: true })
      expect(result.current).toBe(true)
      rerender({ active: false })
      await act(async () => vi.advanceTimersByTime(delay - 1))
      expect(result.current, `${delay} ms`).toBe(true)
      await act(async () => vi.advanceTimersByTime(1))
      expect(result.current, `${delay} ms`).toBe(false)
      unmount()
    }
  })

  it('defaults to 10 ms, and a flag that rises again before the delay never drops', async () => {
    const { result, rerender } = renderHook(({ active }) => useDelayedFlag(active), { initialProps: { active: true } })
    rerender({ active: false })
    await act(async () => vi.advanceTimersByTime(5))
    rerender({ active: true })
    await act(async () => vi.advanceTimersByTime(50))
    expect(result.current).toBe(true)
    rerender({ active: false })
    await act(async () => vi.advanceTimersByTime(10))
    expect(result.current).toBe(false)
  })
})

describe('a server validator (spec §9: 500 ms for validators)', () => {
  it('is called at once for each value, and its checking flag clears 500 ms after the answer', async () => {
    const fetchMock = vi.fn(async (_input: string) => Response.json({ Valido: false, Motivo: 'La letra no corresponde.' }))
    vi.stubGlobal('fetch', fetchMock)
    const { result } = renderHook(() => useServerValidator(nif, '12345678A'))
    // No wait before the call: it is on its way before any time passes.
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(String(fetchMock.mock.calls[0]![0])).toContain('/api/validators/nif?nif=12345678A')
    await settle()
    // Answered, but the flag holds for the validator delay.
    expect(result.current.state).toBe('checking')
    await act(async () => vi.advanceTimersByTime(LOADING_CLEAR_DELAY.validator - 1))
    expect(result.current.state).toBe('checking')
    await act(async () => vi.advanceTimersByTime(1))
    expect(result.current).toEqual({ state: 'invalid', message: 'La letra no corresponde.' })
  })

  it('a new value is checked at once too, and the earlier verdict is not shown for it', async () => {
    const fetchMock = vi.fn(async (input: string) => Response.json({ Valido: String(input).includes('12345678Z') }))
    vi.stubGlobal('fetch', fetchMock)
    const { result, rerender } = renderHook(({ value }) => useServerValidator(nif, value), { initialProps: { value: '12345678A' } })
    await settle()
    await act(async () => vi.advanceTimersByTime(LOADING_CLEAR_DELAY.validator))
    expect(result.current.state).toBe('invalid')
    rerender({ value: '12345678Z' })
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(result.current.state).toBe('checking')
    await settle()
    await act(async () => vi.advanceTimersByTime(LOADING_CLEAR_DELAY.validator))
    expect(result.current.state).toBe('valid')
  })
})

describe('the CUPS check of the Sips tool (validator delay)', () => {
  it('asks at once and shows the verdict 500 ms after the answer', async () => {
    const fetchMock = vi.fn(async (_input: string) => Response.json({ Valido: true, Normalizado: 'ES0021000000000001JN', Motivo: null, Distribuidora: { Codigo: '0021', Nombre: 'i-DE' } }))
    vi.stubGlobal('fetch', fetchMock)
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children)
    const { result } = renderHook(() => useCupsCheck('ES0021000000000001JN'), { wrapper })
    await settle()
    expect(fetchMock).toHaveBeenCalledTimes(1)
    expect(result.current.state).toBe('checking')
    await act(async () => vi.advanceTimersByTime(LOADING_CLEAR_DELAY.validator - 1))
    expect(result.current.state).toBe('checking')
    await act(async () => vi.advanceTimersByTime(1))
    expect(result.current).toMatchObject({ state: 'valid', distributor: 'i-DE' })
  })
})
