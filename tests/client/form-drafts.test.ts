import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Field } from '../../schemas/screen'
import { DRAFT_SAVE_DELAY_MS, DraftSaver, draftValues, type DraftTransport } from '../../client/renderer/form/use-draft'

const field = (name: string, input: Field['input']): Field => ({ name, label: name, input }) as Field

describe('what a draft keeps', () => {
  const fields = [field('Cliente.Nif', 'text'), field('Clave', 'password'), field('Documentos', 'file'), field('Potencia', 'number'), field('Servicios', 'multiselect'), field('Acepta', 'checkbox')]

  it('keeps the form’s own fields; never a password, a file field, a file value or a value of no field', () => {
    const kept = draftValues(fields, {
      'Cliente.Nif': '12345678Z',
      Clave: 'Secreta-2026!',
      Documentos: [new File(['x'], 'dni.pdf')],
      Potencia: 4.6,
      Servicios: ['luz'],
      Acepta: false,
      Intruso: 'no es un campo',
    })
    expect(kept).toEqual({ 'Cliente.Nif': '12345678Z', Potencia: 4.6, Servicios: ['luz'], Acepta: false })
  })

  it('filters a stored draft the same way when restoring it', () => {
    expect(draftValues(fields, { Clave: 'x', 'Cliente.Nif': null, Otro: 1 })).toEqual({ 'Cliente.Nif': null })
  })
})

describe('DraftSaver', () => {
  let saves: Record<string, unknown>[]
  let deletes: number
  let log: string[]
  let failing: boolean
  let slow: { release: () => void } | null
  let warned: number
  const transport: DraftTransport = {
    save: async (_key, values) => {
      log.push(`save ${JSON.stringify(values)}`)
      if (slow) await new Promise<void>((resolve) => (slow!.release = resolve))
      if (failing) throw new Error('503')
      saves.push(values)
    },
    remove: async () => {
      log.push('delete')
      if (failing) throw new Error('503')
      deletes++
    },
  }
  let saver: DraftSaver

  beforeEach(() => {
    vi.useFakeTimers()
    saves = []
    deletes = 0
    log = []
    failing = false
    slow = null
    warned = 0
    saver = new DraftSaver('contrato-alta', transport, () => warned++)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('saves once typing pauses, with the latest values', async () => {
    saver.change({ nif: '1' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 1)
    saver.change({ nif: '12' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS - 1)
    expect(saves).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(saves).toEqual([{ nif: '12' }])
    // the same values again are not sent again
    saver.change({ nif: '12' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    expect(saves).toHaveLength(1)
  })

  it('sends one request at a time, in order: a slow save never lands after a newer one', async () => {
    slow = { release: () => undefined }
    saver.change({ nif: '1' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    const first = slow
    slow = null
    saver.change({ nif: '12' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    expect(log).toEqual(['save {"nif":"1"}'])
    first.release()
    await vi.advanceTimersByTimeAsync(0)
    expect(saves).toEqual([{ nif: '1' }, { nif: '12' }])
  })

  it('clear: drops what waits, and deletes only after the save in flight', async () => {
    slow = { release: () => undefined }
    saver.change({ nif: '1' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    const inFlight = slow
    slow = null
    saver.change({ nif: '12' })
    const cleared = saver.clear()
    inFlight.release()
    expect(await cleared).toBe(true)
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS * 2)
    expect(log).toEqual(['save {"nif":"1"}', 'delete'])
    expect(deletes).toBe(1)
  })

  it('flush saves what waits at once', async () => {
    saver.change({ nif: '1' })
    await saver.flush()
    expect(saves).toEqual([{ nif: '1' }])
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    expect(saves).toHaveLength(1)
  })

  it('a failed save warns once, loses nothing and is tried again on the next change', async () => {
    failing = true
    saver.change({ nif: '1' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    saver.change({ nif: '12' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    expect(warned).toBe(1)
    failing = false
    saver.change({ nif: '123' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    expect(saves).toEqual([{ nif: '123' }])
    expect(warned).toBe(1)
  })

  it('a failed save is tried again by the next flush (a submit, leaving the form)', async () => {
    failing = true
    saver.change({ nif: '1' })
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS)
    failing = false
    await saver.flush()
    expect(saves).toEqual([{ nif: '1' }])
    expect(warned).toBe(1)
  })

  it('a failed delete is reported to the caller', async () => {
    failing = true
    expect(await saver.clear()).toBe(false)
  })
})
