import type { Readable } from 'node:stream'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { isMasked } from '../../schemas/personal-data'
import { maskAnswer, personalTree, type PersonalTree } from '../../schemas/personal-paths'

/**
 * Personal data in the proxy's answers and bodies (issue 16). Every JSON answer of a catalogued
 * call whose catalogue entry marks customers' personal data leaves the BFF masked, for every
 * user: a clear value reaches a browser only through the reveal route, with a reason, audited.
 * A write that sends back a masked value (a form showing what it was given) has that field
 * dropped, so a masked value never overwrites the real one.
 */

/** A masked answer is read whole to be masked: big pages are far below this; an answer over it is refused, not passed on clear. */
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
 * A JSON answer with the marked fields masked. An empty body stays empty; text that is not JSON
 * is refused (undefined): it cannot be checked, so it is not passed on.
 */
export function maskJson(body: Buffer, tree: PersonalTree): Buffer | undefined {
  if (body.length === 0) return body
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return undefined
  }
  return Buffer.from(JSON.stringify(maskAnswer(value, tree)), 'utf8')
}

/**
 * Removes, in place, every field of a JSON body that still holds a masked value: the user was
 * shown the mask and did not type a new value, so the upstream keeps the one it has. Returns
 * the dotted paths dropped (for the log: names only, never values).
 */
export function dropMaskedFields(body: unknown, path = '', dropped: string[] = []): string[] {
  if (body === null || typeof body !== 'object') return dropped
  if (Array.isArray(body)) {
    body.forEach((item, i) => dropMaskedFields(item, `${path}[${i}]`, dropped))
    return dropped
  }
  const record = body as Record<string, unknown>
  for (const name of Object.keys(record)) {
    const at = path ? `${path}.${name}` : name
    if (isMasked(record[name])) {
      delete record[name]
      dropped.push(at)
    } else dropMaskedFields(record[name], at, dropped)
  }
  return dropped
}
