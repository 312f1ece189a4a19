/**
 * Which rows refer to a local copy kept in the data folder (issue 31): a prepared photo, or an
 * original Bookdrop itself wrote there (a mail attachment, what a phone sent, a dropped file).
 * The retention (engine/retention.ts) decides from these which copies still serve.
 */
import type { Db } from '../db'
import { type Row, fromRow } from './rows'
import type { Upload } from './types'

/** What the retention needs of a row that refers to a local copy. */
export type CopyRef = Pick<Upload, 'id' | 'status' | 'path' | 'preparedPath' | 'completedAt' | 'updatedAt'>

/** `text` as a LIKE pattern that matches itself only (escape character `!`). */
function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`)
}

/** Every row with a prepared file, or whose file lies under `dataDir` (its own copies). */
export function localCopyRefs(db: Db, dataDir: string): CopyRef[] {
  const under = `${likeLiteral(dataDir.replace(/[\\/]+$/, ''))}_%`
  return db
    .all<Row>(`SELECT * FROM uploads WHERE prepared_path IS NOT NULL OR path LIKE ? ESCAPE '!'`, under)
    .map(fromRow)
    .map(({ id, status, path, preparedPath, completedAt, updatedAt }) => ({ id, status, path, preparedPath, completedAt, updatedAt }))
}
