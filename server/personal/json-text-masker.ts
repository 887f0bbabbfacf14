import type { PersonalKind } from '../../schemas/catalogue/endpoint'
import { maskAs } from '../../schemas/personal-data'
import type { PersonalTree } from '../../schemas/personal-paths'

/**
 * Masks a JSON answer in one pass over its UTF-8 bytes, as `maskAnswer` masks its parsed value,
 * without decoding, parsing and writing again the whole answer (issue 16: those were most of
 * masking's cost). The scanner follows the path (keys, items) against the tree, passes on what
 * it does not mask as slices of the body, and decodes only the values it masks. It is a full
 * JSON validator, as strict as JSON.parse over the decoded text: a body JSON.parse would refuse
 * gives undefined. Bytes of multi-byte (or invalid) UTF-8 only ever sit inside strings in valid
 * JSON, where any character is allowed and the decoder never swallows an ASCII byte, so the
 * grammar can be checked on the bytes. It keeps no recursion: any depth is read. Returns the
 * body itself when nothing was masked.
 */
export function maskJsonText(body: Uint8Array, tree: PersonalTree): Buffer | undefined {
  const n = body.length
  // The containers open around the point reached: whether each is an array, how the fields of an
  // object or the items of an array are found in the tree (undefined: nothing in it is marked)
  // and the kind when the container is masked whole.
  const arrays: boolean[] = []
  const fieldsOf: (Fields | undefined)[] = []
  const itemsOf: (PersonalTree | undefined)[] = []
  const wholes: (PersonalKind | undefined)[] = []
  const parts: Uint8Array[] = []
  let copied = 0
  // The value about to be read: the tree node at it, or the kind it is masked as. The root is
  // walked, never masked whole (as maskAnswer does).
  let node: PersonalTree | undefined = tree
  let whole: PersonalKind | undefined
  let wantKey = false
  let i = skipSpace(body, 0, n)

  for (;;) {
    if (wantKey) {
      // A member of an object: its key, then the value under the node the key leads to.
      if (i >= n || body[i] !== QUOTE) return undefined
      const keyEnd = stringEnd(body, i + 1, n)
      if (keyEnd < 0) return undefined
      const depth = arrays.length - 1
      const frameWhole = wholes[depth]
      const fields = fieldsOf[depth]
      if (frameWhole !== undefined) {
        whole = frameWhole
        node = undefined
      } else if (fields !== undefined) {
        const child = fieldAt(fields, body, i, keyEnd)
        whole = child?.kind
        node = whole === undefined ? child : undefined
      } else {
        whole = undefined
        node = undefined
      }
      i = skipSpace(body, keyEnd, n)
      if (i >= n || body[i] !== COLON) return undefined
      i = skipSpace(body, i + 1, n)
      wantKey = false
    }

    // A value at i.
    if (i >= n) return undefined
    const c = body[i]!
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const array = c === OPEN_BRACKET
      i = skipSpace(body, i + 1, n)
      if (i >= n || body[i] !== (array ? CLOSE_BRACKET : CLOSE_BRACE)) {
        const tracked = whole === undefined ? node : undefined
        arrays.push(array)
        wholes.push(whole)
        fieldsOf.push(!array && tracked?.fields ? fieldsOfNode(tracked) : undefined)
        itemsOf.push(array ? tracked?.items : undefined)
        if (!array) wantKey = true
        else if (whole === undefined) {
          // Items: masked whole as their array is, or under the tree's items.
          const child = tracked?.items
          whole = child?.kind
          node = whole === undefined ? child : undefined
        }
        continue
      }
      i++
    } else if (c === QUOTE) {
      const end = stringEnd(body, i + 1, n)
      if (end < 0) return undefined
      if (whole !== undefined && end - i > 2) {
        parts.push(body.subarray(copied, i), Buffer.from(JSON.stringify(maskAs(whole, stringValue(body, i, end))), 'utf8'))
        copied = end
      }
      i = end
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const end = numberEnd(body, i, n)
      if (end < 0) return undefined
      if (whole !== undefined) {
        const value = String(Number(Buffer.from(body.buffer, body.byteOffset + i, end - i).toString('latin1')))
        parts.push(body.subarray(copied, i), Buffer.from(JSON.stringify(maskAs(whole, value)), 'utf8'))
        copied = end
      }
      i = end
    } else if (c === LOWER_T && literalAt(body, i, n, TRUE)) i += 4
    else if (c === LOWER_F && literalAt(body, i, n, FALSE)) i += 5
    else if (c === LOWER_N && literalAt(body, i, n, NULL)) i += 4
    else return undefined

    // After a value: close what ends here, then the next member or item, or the end of the body.
    for (;;) {
      i = skipSpace(body, i, n)
      const depth = arrays.length - 1
      if (depth < 0) {
        if (i !== n) return undefined
        if (copied === 0) return Buffer.isBuffer(body) ? body : Buffer.from(body)
        parts.push(body.subarray(copied))
        return Buffer.concat(parts)
      }
      if (i >= n) return undefined
      const next = body[i]
      const array = arrays[depth]
      if (next === COMMA) {
        i = skipSpace(body, i + 1, n)
        if (!array) wantKey = true
        else if (wholes[depth] === undefined) {
          const child = itemsOf[depth]
          whole = child?.kind
          node = whole === undefined ? child : undefined
        }
        // (Items of an array masked whole: `whole` is still the array's kind.)
        else whole = wholes[depth]
        break
      }
      if (next !== (array ? CLOSE_BRACKET : CLOSE_BRACE)) return undefined
      arrays.pop()
      fieldsOf.pop()
      itemsOf.pop()
      wholes.pop()
      i++
    }
  }
}

/** The named fields of a tree node, with their names as UTF-8 bytes to compare keys without decoding them. */
interface Fields {
  map: Map<string, PersonalTree>
  names: Uint8Array[]
  nodes: PersonalTree[]
}

const FIELDS = new WeakMap<PersonalTree, Fields>()

function fieldsOfNode(node: PersonalTree): Fields {
  let fields = FIELDS.get(node)
  if (!fields) {
    const map = node.fields!
    fields = { map, names: [...map.keys()].map((k) => Buffer.from(k, 'utf8')), nodes: [...map.values()] }
    FIELDS.set(node, fields)
  }
  return fields
}

/** The tree node of the key token body[start, end); a key with escapes or beyond ASCII is decoded first. */
function fieldAt(fields: Fields, body: Uint8Array, start: number, end: number): PersonalTree | undefined {
  if (stringSpecial) return fields.map.get(stringValue(body, start, end))
  const length = end - start - 2
  for (let k = 0; k < fields.names.length; k++) {
    const name = fields.names[k]!
    if (name.length !== length) continue
    let j = 0
    while (j < length && name[j] === body[start + 1 + j]) j++
    if (j === length) return fields.nodes[k]
  }
  return undefined
}

/** The value of the checked string token body[start, end). */
function stringValue(body: Uint8Array, start: number, end: number): string {
  const token = Buffer.from(body.buffer, body.byteOffset + start, end - start)
  return stringSpecial ? (JSON.parse(token.toString('utf8')) as string) : token.toString('latin1', 1, token.length - 1)
}

const TAB = 9
const LF = 10
const CR = 13
const SPACE = 32
const QUOTE = 34
const PLUS = 43
const COMMA = 44
const MINUS = 45
const DOT = 46
const SLASH = 47
const ZERO = 48
const ONE = 49
const NINE = 57
const COLON = 58
const UPPER_E = 69
const OPEN_BRACKET = 91
const BACKSLASH = 92
const CLOSE_BRACKET = 93
const LOWER_B = 98
const LOWER_E = 101
const LOWER_F = 102
const LOWER_N = 110
const LOWER_R = 114
const LOWER_T = 116
const LOWER_U = 117
const OPEN_BRACE = 123
const CLOSE_BRACE = 125
const TRUE = Buffer.from('true')
const FALSE = Buffer.from('false')
const NULL = Buffer.from('null')

/** The first index from i that is not JSON whitespace (space, tab, line feed, carriage return). */
function skipSpace(body: Uint8Array, i: number, n: number): number {
  while (i < n) {
    const c = body[i]
    if (c !== SPACE && c !== LF && c !== CR && c !== TAB) break
    i++
  }
  return i
}

function literalAt(body: Uint8Array, i: number, n: number, word: Uint8Array): boolean {
  if (i + word.length > n) return false
  for (let j = 1; j < word.length; j++) if (body[i + j] !== word[j]) return false
  return true
}

/** Whether the last string scanned held an escape or a byte beyond ASCII (set by stringEnd). */
let stringSpecial = false

/** The index after the closing quote of the string whose text starts at i; -1 when it is not a JSON string. */
function stringEnd(body: Uint8Array, i: number, n: number): number {
  let special = false
  while (i < n) {
    const c = body[i]!
    if (c === QUOTE) {
      stringSpecial = special
      return i + 1
    }
    if (c === BACKSLASH) {
      special = true
      if (i + 1 >= n) return -1
      const e = body[i + 1]
      if (e === LOWER_U) {
        if (i + 5 >= n || !isHex(body[i + 2]!) || !isHex(body[i + 3]!) || !isHex(body[i + 4]!) || !isHex(body[i + 5]!)) return -1
        i += 6
      } else if (e === QUOTE || e === BACKSLASH || e === SLASH || e === LOWER_B || e === LOWER_F || e === LOWER_N || e === LOWER_R || e === LOWER_T) i += 2
      else return -1
    } else if (c < SPACE) return -1
    else {
      if (c > 127) special = true
      i++
    }
  }
  return -1
}

/** The index after the JSON number starting at i; -1 when there is none (`01` stops after `0`; `1.`, `-`, `1e` fail). */
function numberEnd(body: Uint8Array, i: number, n: number): number {
  if (body[i] === MINUS) i++
  if (i >= n) return -1
  const first = body[i]!
  if (first === ZERO) i++
  else if (first >= ONE && first <= NINE) i = digitsEnd(body, i + 1, n)
  else return -1
  if (i < n && body[i] === DOT) {
    if (i + 1 >= n || !isDigit(body[i + 1]!)) return -1
    i = digitsEnd(body, i + 2, n)
  }
  if (i < n && (body[i] === LOWER_E || body[i] === UPPER_E)) {
    i++
    if (i < n && (body[i] === PLUS || body[i] === MINUS)) i++
    if (i >= n || !isDigit(body[i]!)) return -1
    i = digitsEnd(body, i + 1, n)
  }
  return i
}

function digitsEnd(body: Uint8Array, i: number, n: number): number {
  while (i < n && isDigit(body[i]!)) i++
  return i
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
}
