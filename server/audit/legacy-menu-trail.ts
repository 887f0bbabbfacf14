import type Database from 'better-sqlite3'
import type { NewAuditEntry } from '../../schemas/audit'
import type { Author } from '../../schemas/admin'
import { closeRedis, firstConnection, openRedis, type StoreLog } from '../lib/redis-client'
import { openDatabase } from '../lib/sqlite'
import type { AuditLog } from './audit-log'
import { recordOfDoc } from './audit-writer'
import type { RedisAuditLog } from './redis-audit-log'

/**
 * Before the audit log, the menu store kept the menu manager's and the studio's trail itself
 * (a table of the menus' SQLite file, or Redis lists). At start, what is left there is moved
 * into the audit log once, oldest first, and the old trail removed: the history stays whole.
 */

interface LegacyEntry {
  /** The old trail's own id (SQLite) or position (Redis): what keeps a repeated move from adding it twice. */
  key: string
  at: number
  actor: Author
  action: string
  doc: string
  version: number | null
  details: Record<string, unknown>
}

/** The route each old action was made through. */
const ROUTES: Record<string, string> = {
  'menu.save': 'PUT bff/admin/menu',
  'menu.rollback': 'POST bff/admin/menu/rollback',
  'screen.create': 'POST bff/admin/screens',
  'screen.save': 'PUT bff/admin/screens/:id',
  'screen.publish': 'POST bff/admin/screens/:id/publish',
  'screen.rollback': 'POST bff/admin/screens/:id/rollback',
  'screen.render-error': 'POST bff/screens/:id/render-error',
  'screen.fallback': 'POST bff/screens/:id/render-error',
}

function toEntry(old: LegacyEntry): NewAuditEntry {
  const record = recordOfDoc(old.doc)
  return {
    at: new Date(old.at).toISOString(),
    kind: 'admin',
    actor: { id: old.actor.id, email: old.actor.email, name: old.actor.name },
    // The old trail did not keep the request's brand: a menu's is its own, a screen's unknown.
    brand: record?.entity === 'menu' ? record.id : '',
    call: ROUTES[old.action] ?? old.action,
    ...(record ? { record } : {}),
    outcome: { status: old.action === 'screen.create' ? 201 : old.action.startsWith('screen.render') || old.action === 'screen.fallback' ? 202 : 200, ok: true },
    requestId: `menu-trail:${old.key}`,
    action: old.action,
    doc: old.doc,
    version: old.version,
    details: old.details,
  }
}

/** Moves the `audit` table of the menus' SQLite file into the log; answers how many entries moved. */
export async function moveSqliteMenuTrail(menusFile: string, audit: AuditLog): Promise<number> {
  const db: Database.Database = openDatabase(menusFile)
  try {
    const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'audit'").get()
    if (!exists) return 0
    const rows = db.prepare('SELECT * FROM audit ORDER BY id').all() as { id: number; at: number; actor_id: number; actor_name: string; actor_email: string; action: string; doc: string; version: number | null; details: string }[]
    for (const r of rows) {
      const old = { key: String(r.id), at: r.at, actor: { id: r.actor_id, name: r.actor_name, email: r.actor_email }, action: r.action, doc: r.doc, version: r.version, details: JSON.parse(r.details) as Record<string, unknown> }
      await audit.append(toEntry(old))
    }
    db.exec('DROP TABLE audit')
    return rows.length
  } finally {
    db.close()
  }
}

const TRAIL_KEY = 'portal:menu-audit'

/** Moves the Redis lists of the old trail (all, and one per document) into the log; answers how many entries moved. */
export async function moveRedisMenuTrail(url: string, audit: RedisAuditLog, log?: StoreLog): Promise<number> {
  const redis = openRedis(url, 'menu-trail', log)
  try {
    if (!(await firstConnection(redis))) throw new Error('Redis is not answering')
    // Newest first, as they were pushed.
    const raws = await redis.lrange(TRAIL_KEY, 0, -1)
    if (raws.length === 0) return 0
    const olds = raws.map((raw, i) => ({ ...(JSON.parse(raw) as Omit<LegacyEntry, 'key'>), key: String(raws.length - i) })).reverse()
    await audit.import(olds.map(toEntry))
    const docs = new Set(olds.map((o) => o.doc))
    await redis.del(TRAIL_KEY, ...[...docs].map((doc) => `${TRAIL_KEY}:${doc}`))
    return olds.length
  } finally {
    await closeRedis(redis)
  }
}
