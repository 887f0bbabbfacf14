import type { Readable } from 'node:stream'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { ANSWER_MASKED_KINDS, isMasked, maskAs } from '../../schemas/personal-data'
import { personalTree, type PersonalTree } from '../../schemas/personal-paths'
import { maskJsonText } from './json-text-masker'

/**
 * Personal data in the proxy's answers and bodies (issue 16). Every JSON answer of a catalogued
 * call whose catalogue entry marks customers' personal data leaves the BFF masked, for every
 * user: a clear value reaches a browser only through the reveal route, with a reason, audited.
 * A write that sends back a masked value (a form showing what it was given) has that value put
 * back from the record or the field dropped, so a masked value never overwrites the real one.
 */

/** A masked answer is read whole to be masked: big pages are far below this; an answer over it is refused, not passed on clear. */
const ANSWER_MASKED_KIND_LIST = [...ANSWER_MASKED_KINDS]

export const MASKED_ANSWER_MAX_BYTES = 32 * 1024 * 1024

/** The masking tree of each call, built once (null: nothing to mask in its answers). */
export class AnswerMasks {
  private readonly trees = new WeakMap<Endpoint, PersonalTree | null>()

  of(call: Endpoint): PersonalTree | null {
    let tree = this.trees.get(call)
    if (tree === undefined) {
      tree = call.answer === 'file' || call.answer === 'empty' || call.personalEcho ? null : personalTree(call.personal)
      this.trees.set(call, tree)
    }
    return tree
  }
}

export class AnswerTooLarge extends Error {}

/** The answer as one Buffer: read to its end when it came as a stream, up to `max` bytes. */
export async function wholeBody(body: Buffer | Readable, max = MASKED_ANSWER_MAX_BYTES): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of body) {
    size += (chunk as Buffer).length
    if (size > max) {
      body.destroy()
      throw new AnswerTooLarge(`answer over ${max} bytes`)
    }
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * A JSON answer with the marked fields masked, in one pass over its text (the same values as
 * maskAnswer over the parsed answer; the rest of the text as it came). An empty body stays
 * empty; text that is not JSON is refused (undefined): it cannot be checked, so it is not
 * passed on. An answer with nothing to mask is passed on as it came.
 */
export function maskJson(body: Buffer, tree: PersonalTree): Buffer | undefined {
  if (body.length === 0) return body
  return maskJsonText(body, tree)
}

/** What became of the masked values of a write body: put back from the record, or left out. */
export interface SettledMasks {
  restored: string[]
  dropped: string[]
}

/** Whether a JSON body holds a masked value anywhere. */
export function holdsMaskedValue(body: unknown): boolean {
  if (isMasked(body)) return true
  if (body === null || typeof body !== 'object') return false
  return Object.values(body as Record<string, unknown>).some(holdsMaskedValue)
}

/**
 * Settles, in place, every field of a JSON body that still holds a masked value: the user was
 * shown the mask and did not type a new value. When the record as it is now (`current`, read
 * with the user's token) holds, at the same place, the clear value that masks to exactly what
 * was sent, that value is put back: a form that sends the whole record (an edit call) keeps
 * its required fields, and nothing the upstream does not already hold is sent. Otherwise the
 * field is left out, so the upstream keeps the value it has. Returns the dotted paths of each
 * (for the log: names only, never values).
 */
export function settleMaskedFields(body: unknown, current: unknown, path = '', settled: SettledMasks = { restored: [], dropped: [] }): SettledMasks {
  if (body === null || typeof body !== 'object') return settled
  const here = current !== null && typeof current === 'object' ? (current as Record<string, unknown>) : undefined
  if (Array.isArray(body)) {
    body.forEach((item, i) => settleMaskedFields(item, Array.isArray(here) ? here[i] : undefined, `${path}[${i}]`, settled))
    return settled
  }
  const record = body as Record<string, unknown>
  for (const name of Object.keys(record)) {
    const at = path ? `${path}.${name}` : name
    const value = record[name]
    const clear = here && Object.hasOwn(here, name) ? here[name] : undefined
    if (!isMasked(value)) settleMaskedFields(value, clear, at, settled)
    else if ((typeof clear === 'string' || typeof clear === 'number') && !isMasked(clear) && ANSWER_MASKED_KIND_LIST.some((kind) => maskAs(kind, String(clear)) === value)) {
      record[name] = clear
      settled.restored.push(at)
    } else {
      delete record[name]
      settled.dropped.push(at)
    }
  }
  return settled
}
