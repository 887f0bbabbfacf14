import { createCipheriv, createDecipheriv, createSecretKey, randomBytes, type KeyObject } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Upstream tokens at rest: AES-256-GCM under SESSION_ENCRYPTION_KEY, so a copy of
 * `bff-sessions.db` or of a Redis dump holds no usable token. A stored value is
 * `v1.` + base64url(IV ‖ tag ‖ ciphertext): a fresh 12-byte IV per value, the 16-byte tag
 * checked on every read, and the prefix naming the format so a later one can be told apart.
 * Each value is bound (additional authenticated data) to its session and field: copied into
 * another session's row or field, it no longer decrypts.
 */
const VERSION = 'v1.'
const IV_BYTES = 12
const TAG_BYTES = 16
const KEY_BYTES = 32

/** The generated key's file under DATA_DIR when SESSION_ENCRYPTION_KEY is unset (one instance only). */
export const KEY_FILE = 'bff-session.key'

/** How to make a key; quoted in the messages that refuse one. */
export const KEY_HINT = 'genera una con «openssl rand -base64 32»'

export class TokenCipher {
  constructor(private readonly key: KeyObject) {
    if (key.type !== 'secret' || key.symmetricKeySize !== KEY_BYTES) throw new Error('TokenCipher necesita una clave AES de 32 bytes.')
  }

  /** A store that has no configured key (tests): tokens are still never written in clear. */
  static random(): TokenCipher {
    return new TokenCipher(createSecretKey(randomBytes(KEY_BYTES)))
  }

  /** `context` names where the value lives (session hash and field); `decrypt` must be given the same. */
  encrypt(value: string, context: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(context, 'utf8'))
    const body = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()])
    return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')
  }

  /**
   * The clear value, or null when it cannot be trusted: another key, altered, moved to another
   * session or field, or not ours at all (a token an older version stored in clear).
   */
  decrypt(stored: string, context: string): string | null {
    if (!stored.startsWith(VERSION)) return null
    const raw = Buffer.from(stored.slice(VERSION.length), 'base64url')
    if (raw.length < IV_BYTES + TAG_BYTES) return null
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES })
      decipher.setAAD(Buffer.from(context, 'utf8'))
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8')
    } catch {
      return null
    }
  }
}

/** Where a token lives: a session (the hash of its id, as stores key it) and a field. */
export type TokenField = 'token' | 'refreshToken'

/** A token as a store writes it: encrypted, bound to its session and field. */
export function sealToken(cipher: TokenCipher, sessionHash: string, field: TokenField, value: string): string {
  return cipher.encrypt(value, `${sessionHash}:${field}`)
}

/**
 * A stored session's tokens in clear, or null when either cannot be read: the store then
 * treats the session as ended (deletes it and logs UNREADABLE_SESSION once).
 */
export function openTokens(
  cipher: TokenCipher,
  sessionHash: string,
  stored: { token: string | undefined; refreshToken: string | null },
): { token: string; refreshToken: string | null } | null {
  const token = stored.token === undefined ? null : cipher.decrypt(stored.token, `${sessionHash}:token`)
  if (token === null) return null
  if (stored.refreshToken === null) return { token, refreshToken: null }
  const refreshToken = cipher.decrypt(stored.refreshToken, `${sessionHash}:refreshToken`)
  return refreshToken === null ? null : { token, refreshToken }
}

/** The warning a store logs for a session it cannot decrypt; it names neither the session nor a value. */
export const UNREADABLE_SESSION = {
  fields: { event: 'session_unreadable', store: 'sessionStore' },
  message: 'a stored session could not be decrypted (another SESSION_ENCRYPTION_KEY, altered, or stored in clear by an older version): ended',
} as const

/**
 * A key as SESSION_ENCRYPTION_KEY gives it: 32 bytes as hex (64 characters) or base64 /
 * base64url (43 or 44 characters); null for anything else. Kept as a KeyObject, which never
 * prints its bytes should a config object end up in a log.
 */
export function parseTokenKey(text: string): KeyObject | null {
  const value = text.trim()
  let bytes: Buffer
  if (/^[0-9a-fA-F]{64}$/.test(value)) bytes = Buffer.from(value, 'hex')
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) bytes = Buffer.from(value, 'base64')
  else return null
  return bytes.length === KEY_BYTES ? createSecretKey(bytes) : null
}

/**
 * The key of a single instance without SESSION_ENCRYPTION_KEY: generated once into
 * DATA_DIR/bff-session.key (mode 0600) and read back on every later start. Written under a
 * temporary name and linked into place, so two processes starting together agree on one key.
 */
export function keyFromDataDir(dataDir: string): KeyObject {
  const file = path.join(dataDir, KEY_FILE)
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true })
    const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
    fs.writeFileSync(temp, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600 })
    try {
      fs.linkSync(temp, file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    } finally {
      fs.rmSync(temp, { force: true })
    }
  }
  const key = parseTokenKey(fs.readFileSync(file, 'utf8'))
  if (!key) throw new Error(`${file} no contiene una clave de sesión válida (32 bytes en base64 o hexadecimal): ${KEY_HINT}, o bórralo para generar otra (las sesiones abiertas terminarán).`)
  return key
}
