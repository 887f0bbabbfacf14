import type Database from 'better-sqlite3'

/**
 * Reads kept while the database is unchanged. SQLite's total_changes() counts every row written
 * on this connection (the API's only writer), so one cheap call tells whether anything was
 * written since; if so every kept read is dropped. For the reads made on every request (brand,
 * caller and permissions): a change of permissions or a deactivated user still counts at once.
 */
export class UnchangedDbCache<K, V> {
  private readonly totalChanges: Database.Statement<[], number>
  private readAt = -1
  private readonly values = new Map<K, V>()

  constructor(
    db: Database.Database,
    private readonly read: (key: K) => V,
    /** Keys kept at most (keys may come from request headers): all dropped when reached. */
    private readonly capacity = 1_000,
  ) {
    this.totalChanges = db.prepare<[], number>('SELECT total_changes()').pluck()
  }

  get(key: K): V {
    const changes = this.totalChanges.get()!
    if (changes !== this.readAt) {
      this.values.clear()
      this.readAt = changes
    }
    if (this.values.has(key)) return this.values.get(key) as V
    const value = this.read(key)
    if (this.values.size >= this.capacity) this.values.clear()
    this.values.set(key, value)
    return value
  }
}
