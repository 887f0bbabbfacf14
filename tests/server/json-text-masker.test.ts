import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Endpoint } from '../../schemas/catalogue/endpoint'
import { maskAnswer } from '../../schemas/personal-paths'
import { loadCatalogue } from '../../server/catalogue/catalogue-loader'
import { AnswerMasks, maskJson } from '../../server/personal/answer-masking'
import { maskJsonText } from '../../server/personal/json-text-masker'
import { ANSWER_REQUESTS, readSeedKeys, type SeedKeys } from '../contract/answer-requests'
import { ApiCaller } from '../helpers/api-caller'
import { ADMIN } from '../helpers/bff'
import { startReferenceApi, type RunningReferenceApi } from '../helpers/reference-api'

/**
 * Issue 16, examples of the one-pass masker: the catalogue's own trees (every call's, as the BFF
 * builds them) against the reference API's real answers give the same masked value as parsing
 * the answer and masking it; the contract list, the contract detail and the agent list among them.
 */

const catalogue = loadCatalogue()
const masks = new AnswerMasks()
/** Every call's tree, built as the BFF builds it (null: nothing masked in its answers). */
const trees = new Map(catalogue.calls.map((c) => [c.id, masks.of(c)]))
const MUST = ['contract.list', 'contract.detail', 'agent.list']

let api: RunningReferenceApi
let admin: ApiCaller
let keys: SeedKeys

beforeAll(async () => {
  api = await startReferenceApi()
  admin = await ApiCaller.signIn(api.url, ADMIN)
  keys = await readSeedKeys(admin)
})
afterAll(async () => {
  await api?.close()
})

const urlOf = (call: Endpoint, pathParams: Record<string, string | number> = {}) => `/${call.path.replace(/\{([A-Za-z0-9]+)\}/g, (_, name: string) => encodeURIComponent(String(pathParams[name])))}`

/** The reference API's answers to the marked reads, as the admin (who sees every record). */
async function realAnswers(): Promise<{ call: Endpoint; text: string; bytes: Buffer }[]> {
  const out: { call: Endpoint; text: string; bytes: Buffer }[] = []
  for (const call of catalogue.calls) {
    if (call.effect !== 'read' || !trees.get(call.id)) continue
    for (const req of ANSWER_REQUESTS[call.id]?.(keys) ?? []) {
      const res = await admin.call(call.method, urlOf(call, req.pathParams), { query: req.query, body: req.body })
      if (res.status === 200 && res.text !== '') out.push({ call, text: res.text, bytes: res.bytes })
    }
  }
  return out
}

describe('the one-pass masker on real answers', () => {
  it('masks each call’s answer with its catalogue tree as parse-and-mask does, and masks something in the lists and details', async () => {
    const answers = await realAnswers()
    for (const id of MUST) expect(answers.map((a) => a.call.id)).toContain(id)
    for (const { call, text, bytes } of answers) {
      const tree = trees.get(call.id)!
      const masked = maskJsonText(bytes, tree)?.toString('utf8')
      expect(masked, call.id).toBeDefined()
      expect(JSON.parse(masked!), call.id).toEqual(maskAnswer(JSON.parse(text), tree))
      expect(JSON.parse(maskJson(bytes, tree)!.toString('utf8')), call.id).toEqual(maskAnswer(JSON.parse(text), tree))
      if (MUST.includes(call.id)) expect(masked, `${call.id}: something masked`).not.toBe(text)
    }
  })

  it('gives the same as parse-and-mask for every catalogue tree over the contract list, contract detail and agent list', async () => {
    const answers = (await realAnswers()).filter((a) => MUST.includes(a.call.id))
    const built = [...trees.values()].filter((t) => t !== null)
    expect(built.length).toBeGreaterThan(10)
    for (const { call, text, bytes } of answers) {
      for (const tree of built) expect(JSON.parse(maskJsonText(bytes, tree)!.toString('utf8')), call.id).toEqual(maskAnswer(JSON.parse(text), tree))
    }
  })
})
