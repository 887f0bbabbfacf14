import type Database from 'better-sqlite3'
import type { Random } from '../../lib/random'

/** Folders of the file area per brand. */
export function seedFiles(_db: Database.Database, _rnd: Random, _today: Date): void {}
