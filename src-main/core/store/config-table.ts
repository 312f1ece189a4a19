/**
 * Settings kept as JSON, one row per id (watched folders, mail accounts): the table's `config`
 * column holds the whole config, listed in the order they were added.
 */
import type { Db } from './db'

export class ConfigTable<C extends { id: string; addedAt: number }> {
  constructor(
    private readonly db: Db,
    private readonly table: 'folders' | 'mail_accounts',
  ) {}

  list(): C[] {
    return this.db
      .all<{ config: string }>(`SELECT config FROM ${this.table} ORDER BY added_at, id`)
      .map((r) => JSON.parse(r.config) as C)
  }

  get(id: string): C | undefined {
    const r = this.db.get<{ config: string }>(`SELECT config FROM ${this.table} WHERE id = ?`, id)
    return r ? (JSON.parse(r.config) as C) : undefined
  }

  save(c: C): void {
    this.db.run(
      `INSERT INTO ${this.table} (id, config, added_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET config = excluded.config`,
      c.id,
      JSON.stringify(c),
      c.addedAt,
    )
  }

  /** Removes one; says whether it was there. */
  remove(id: string): boolean {
    return this.db.run(`DELETE FROM ${this.table} WHERE id = ?`, id).changes > 0
  }
}
