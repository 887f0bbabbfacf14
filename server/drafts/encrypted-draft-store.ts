import type { TokenCipher } from '../session/token-cipher'
import type { DraftOwner, DraftStore, SavedDraft } from './draft-store'

/** The one field an encrypted draft's stored values hold. */
const SEALED = 'sellado'

/**
 * Drafts hold what users typed: NIF, IBAN, addresses, phones. Whatever adapter keeps them, they
 * are sealed with the session key (AES-256-GCM, bound to owner, brand and form), so a copy of
 * `bff-drafts.db` or a Redis dump holds none of it. A draft that does not open (another key,
 * altered, moved to another owner) is as good as none.
 */
export class EncryptedDraftStore implements DraftStore {
  constructor(
    private readonly inner: DraftStore,
    private readonly cipher: TokenCipher,
  ) {}

  private context(owner: DraftOwner, key: string): string {
    return `draft:${owner.userId}:${owner.brand}:${key}`
  }

  async get(owner: DraftOwner, key: string): Promise<SavedDraft | null> {
    const stored = await this.inner.get(owner, key)
    const sealed = stored?.values[SEALED]
    if (!stored || typeof sealed !== 'string') return null
    const clear = this.cipher.decrypt(sealed, this.context(owner, key))
    if (clear === null) return null
    return { values: JSON.parse(clear) as Record<string, unknown>, savedAt: stored.savedAt }
  }

  async put(owner: DraftOwner, key: string, values: Record<string, unknown>): Promise<SavedDraft> {
    const saved = await this.inner.put(owner, key, { [SEALED]: this.cipher.encrypt(JSON.stringify(values), this.context(owner, key)) })
    return { values, savedAt: saved.savedAt }
  }

  delete(owner: DraftOwner, key: string): Promise<void> {
    return this.inner.delete(owner, key)
  }

  ping(): Promise<void> {
    return this.inner.ping()
  }

  close(): Promise<void> {
    return this.inner.close()
  }
}
