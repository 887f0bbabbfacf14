import type Database from 'better-sqlite3'
import type { Random } from '../../lib/random'

/** Clients, supply points, contracts with their history, invoices and renewals, per brand. */
export function seedBusiness(_db: Database.Database, _rnd: Random, _today: Date): void {}
