/**
 * Storage faults: the disk is full, or the file system fails under the database. They are not the
 * fault of one file, so the queue pauses as a whole and tries again (queue.ts), and the message
 * says what a person can do.
 */

/** SQLite's result codes (libsql's SqliteError.code) and errno codes that mean "storage is failing". */
const STORAGE_CODES = /^(SQLITE_FULL|SQLITE_IOERR|SQLITE_READONLY|SQLITE_CANTOPEN|SQLITE_BUSY)|^(ENOSPC|EDQUOT|EIO|EROFS)$/

export function storageCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' && STORAGE_CODES.test(code) ? code : undefined
}

export function isStorageError(e: unknown): boolean {
  return storageCode(e) !== undefined
}

/** Plain words for a storage fault, with the way out. */
export function storageMessage(e: unknown): string {
  const code = storageCode(e) ?? ''
  if (code.startsWith('SQLITE_FULL') || code === 'ENOSPC' || code === 'EDQUOT') {
    return 'The disk is full: Bookdrop cannot record uploads, so it has paused them. Free some space; uploads resume by themselves.'
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') {
    return "Bookdrop's data folder has become read-only, so uploads are paused. Check the disk; they resume by themselves."
  }
  if (code.startsWith('SQLITE_BUSY')) {
    return "Bookdrop's database is locked by another program, so uploads are paused; they resume by themselves."
  }
  return `Bookdrop cannot write to its data folder (${code || 'I/O error'}), so uploads are paused. Check the disk; they resume by themselves.`
}
