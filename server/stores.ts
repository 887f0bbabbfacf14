import path from 'node:path'
import type { AuditLog } from './audit/audit-log'
import { RedisAuditLog } from './audit/redis-audit-log'
import { SqliteAuditLog } from './audit/sqlite-audit-log'
import { moveRedisMenuTrail, moveSqliteMenuTrail } from './audit/legacy-menu-trail'
import type { Config } from './config'
import type { StoreLog } from './lib/redis-client'
import type { DraftStore } from './drafts/draft-store'
import { RedisDraftStore } from './drafts/redis-draft-store'
import { SqliteDraftStore } from './drafts/sqlite-draft-store'
import { EncryptedDraftStore } from './drafts/encrypted-draft-store'
import type { MenuStore } from './manifest/menu-store'
import type { ApprovalStore } from './approvals/approval-store'
import { RedisApprovalStore } from './approvals/redis-approval-store'
import { SqliteApprovalStore } from './approvals/sqlite-approval-store'
import { MemoryEventBus, type EventBus } from './events/event-bus'
import { MemoryPresenceStore, type PresenceStore } from './events/presence-store'
import { RedisEventBus } from './events/redis-event-bus'
import { RedisPresenceStore } from './events/redis-presence-store'
import type { ImportStore } from './imports/import-store'
import { RedisImportStore } from './imports/redis-import-store'
import { SqliteImportStore } from './imports/sqlite-import-store'
import type { NoticeStore } from './notices/notice-store'
import { RedisNoticeStore } from './notices/redis-notice-store'
import { SqliteNoticeStore } from './notices/sqlite-notice-store'
import type { ViewStore } from './views/view-store'
import { RedisViewStore } from './views/redis-view-store'
import { SqliteViewStore } from './views/sqlite-view-store'
import { MemoryAttemptCounter, type AttemptCounter } from './security/attempt-counter'
import { RedisAttemptCounter } from './security/redis-attempt-counter'
import { RedisMenuStore } from './manifest/redis-menu-store'
import { SqliteMenuStore } from './manifest/sqlite-menu-store'
import { RedisSessionStore } from './session/redis-session-store'
import type { SessionStore } from './session/session-store'
import { SqliteSessionStore } from './session/sqlite-session-store'
import { keyFromDataDir, KEY_HINT, TokenCipher } from './session/token-cipher'

export interface Stores {
  sessions: SessionStore
  menus: MenuStore
  /** Failed sign-in counts (the throttle). */
  attempts: AttemptCounter
  /** Form drafts (7 days). */
  drafts: DraftStore
  /** The audit of every change (append-only; AUDIT_RETENTION_DAYS). */
  audit: AuditLog
  /** Mutations held for four-eyes approval. */
  approvals: ApprovalStore
  /** What a user is told on their next page load. */
  notices: NoticeStore
  /** Live events between replicas (record changes, presence). */
  events: EventBus
  /** Who views which record, with expiry. */
  presence: PresenceStore
  /** Views of lists: private, shared with a group, published to a brand. */
  views: ViewStore
  /** Bulk imports: jobs, their sealed rows, rows already imported per brand. */
  imports: ImportStore
}

export interface OpenedStores extends Stores {
  /** The session key's cipher: also seals the bodies of held requests. */
  cipher: TokenCipher
}

/**
 * The BFF's stores. Given ones (tests) are kept; otherwise REDIS_URL means Redis, shared
 * by every replica, and its absence SQLite files under DATA_DIR for a single instance.
 */
export async function openStores(config: Config, given: Partial<Stores>, log: StoreLog): Promise<OpenedStores> {
  const timeouts = { idleMs: config.sessionIdleTimeoutMs, absoluteMs: config.sessionAbsoluteTimeoutMs }
  if (config.redisUrl) {
    const cipher = sharedCipher(config)
    const [sessions, menus, attempts, drafts, audit, approvals, notices, events, views, imports] = await Promise.all([
      given.sessions ?? RedisSessionStore.open(config.redisUrl, timeouts, { cipher, log }),
      given.menus ?? RedisMenuStore.open(config.redisUrl, { log }),
      given.attempts ?? RedisAttemptCounter.open(config.redisUrl, log),
      given.drafts ?? RedisDraftStore.open(config.redisUrl, { log }).then((store) => new EncryptedDraftStore(store, cipher)),
      given.audit ?? RedisAuditLog.open(config.redisUrl, { retentionMs: config.auditRetentionMs, log }),
      given.approvals ?? RedisApprovalStore.open(config.redisUrl, { log }),
      given.notices ?? RedisNoticeStore.open(config.redisUrl, { log }),
      given.events ?? RedisEventBus.open(config.redisUrl, { log }),
      given.views ?? RedisViewStore.open(config.redisUrl, { log }),
      given.imports ?? RedisImportStore.open(config.redisUrl, { log }),
    ])
    const presence = given.presence ?? RedisPresenceStore.open(config.redisUrl, { log })
    if (!given.audit && !given.menus && audit instanceof RedisAuditLog) await moveOldTrail(() => moveRedisMenuTrail(config.redisUrl!, audit, log), log)
    return { sessions, menus, attempts, drafts, audit, approvals, notices, events, presence, views, imports, cipher }
  }
  const cipher = new TokenCipher(config.sessionEncryptionKey ?? keyFromDataDir(config.dataDir))
  const menusFile = path.join(config.dataDir, 'bff-menus.db')
  const audit = given.audit ?? new SqliteAuditLog(path.join(config.dataDir, 'bff-audit.db'), { retentionMs: config.auditRetentionMs })
  if (!given.audit && !given.menus) await moveOldTrail(() => moveSqliteMenuTrail(menusFile, audit), log)
  return {
    sessions: given.sessions ?? new SqliteSessionStore(path.join(config.dataDir, 'bff-sessions.db'), timeouts, { cipher, log }),
    menus: given.menus ?? new SqliteMenuStore(menusFile),
    attempts: given.attempts ?? new MemoryAttemptCounter(),
    drafts: given.drafts ?? new EncryptedDraftStore(new SqliteDraftStore(path.join(config.dataDir, 'bff-drafts.db')), cipher),
    audit,
    approvals: given.approvals ?? new SqliteApprovalStore(path.join(config.dataDir, 'bff-approvals.db')),
    notices: given.notices ?? new SqliteNoticeStore(path.join(config.dataDir, 'bff-notices.db')),
    events: given.events ?? new MemoryEventBus(),
    presence: given.presence ?? new MemoryPresenceStore(),
    views: given.views ?? new SqliteViewStore(path.join(config.dataDir, 'bff-views.db')),
    imports: given.imports ?? new SqliteImportStore(path.join(config.dataDir, 'bff-imports.db')),
    cipher,
  }
}

/** The menu store's old trail moved into the audit log; a failure is logged and the move tried again at the next start. */
async function moveOldTrail(move: () => Promise<number>, log: StoreLog): Promise<void> {
  try {
    const moved = await move()
    if (moved > 0) log.info({ event: 'audit_trail_moved', entries: moved }, 'the menu store’s old trail moved into the audit log')
  } catch (err) {
    log.warn({ event: 'audit_trail_move_failed', err: { message: (err as Error).message } }, 'the menu store’s old trail could not be moved into the audit log yet')
  }
}

/**
 * Replicas sharing Redis must share the key. loadConfig already refuses REDIS_URL without
 * one; a hand-built config must not fall back to a key of this replica alone.
 */
function sharedCipher(config: Config): TokenCipher {
  if (!config.sessionEncryptionKey) throw new Error(`SESSION_ENCRYPTION_KEY es obligatoria cuando REDIS_URL está definida (${KEY_HINT}).`)
  return new TokenCipher(config.sessionEncryptionKey)
}
