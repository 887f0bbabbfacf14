import type Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'

/**
 * The brands (companies) the API serves. Their domains are the product's brand files'
 * `Domain`, read from the top-level brands folder so both sides agree.
 */
export function seedBrands(db: Database.Database, brandsDir: string): void {
  const insert = db.prepare('INSERT INTO marcas (dominio, nombre) VALUES (?, ?)')
  const keys = fs.readdirSync(brandsDir).filter((k) => fs.existsSync(path.join(brandsDir, k, 'brand.json'))).sort()
  db.transaction(() => {
    for (const key of keys) {
      const brand = JSON.parse(fs.readFileSync(path.join(brandsDir, key, 'brand.json'), 'utf8')) as { Domain: string; Name: string }
      insert.run(brand.Domain, brand.Name)
    }
  })()
}
