import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'

/** Opens (creating its folder) a SQLite file tuned for a small web service: WAL, normal sync. */
export function openDatabase(file: string): Database.Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true })
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  return db
}
