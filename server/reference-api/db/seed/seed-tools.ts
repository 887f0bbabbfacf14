import type Database from 'better-sqlite3'
import type { Random } from '../../lib/random'

/** Battery catalogue and other reference data of the tools. */
export function seedTools(_db: Database.Database, _rnd: Random, _today: Date): void {}
