import type Database from 'better-sqlite3'
import { Random } from '../../lib/random'
import { metaValue, setMeta } from '../database'
import { demoPasswordHashes, seedAccess } from './seed-access'
import { seedAdmin } from './seed-admin'
import { seedAgents } from './seed-agents'
import { seedBrands } from './seed-brands'
import { seedBusiness } from './seed-business'
import { seedFiles } from './seed-files'
import { seedScale } from './seed-scale'
import { seedTools } from './seed-tools'

/** The fixed seed of the demo data: every machine gets the same rows. */
const SEED = 20261121

/**
 * Fills a new database with the demo data, topped up to `contractsPerBrand` contracts per brand
 * when that is more than the demo's (seed-scale.ts); does nothing when it was seeded before.
 */
export async function seedIfEmpty(db: Database.Database, opts: { brandsDir: string; today?: Date; contractsPerBrand?: number }): Promise<boolean> {
  if (metaValue(db, 'seeded_at')) return false
  const today = opts.today ?? new Date()
  const rnd = new Random(SEED)
  const hashes = await demoPasswordHashes()
  // One transaction: a start that dies half-way leaves an empty database, seeded again next time.
  db.transaction(() => {
    seedBrands(db, opts.brandsDir)
    seedAccess(db, rnd, today, hashes)
    seedAgents(db, rnd, today)
    seedBusiness(db, rnd, today)
    seedAdmin(db, rnd, today)
    seedTools(db, rnd, today)
    seedFiles(db, rnd, today)
    if (opts.contractsPerBrand) seedScale(db, today, opts.contractsPerBrand)
    setMeta(db, 'seeded_at', today.toISOString())
  })()
  return true
}
