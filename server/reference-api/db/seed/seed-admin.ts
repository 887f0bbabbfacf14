import type Database from 'better-sqlite3'
import type { Random } from '../../lib/random'

/** API users, API keys and user preferences. */
export function seedAdmin(_db: Database.Database, _rnd: Random, _today: Date): void {}
