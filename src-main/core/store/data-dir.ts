/**
 * The data directory's guards: one process at a time (a lock the OS releases when the process ends,
 * however it ends), and a queue database that cannot be read is named, with a way out that deletes
 * nothing (move it aside and start fresh).
 */
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Database } from './libsql'
import { Db } from './db'
import { PRIVATE_FILE_MODE, createPrivateFile, mkdirPrivate } from './private-dir'

export const DB_FILE = 'bookdrop.db'
const LOCK_FILE = 'bookdrop.lock'
const PID_FILE = 'bookdrop.pid'

/** Another Bookdrop process (desktop, web host or headless) has this data directory. */
export class AlreadyRunningError extends Error {
  override readonly name = 'AlreadyRunningError'
  readonly code = 'already_running'
  constructor(
    readonly dataDir: string,
    readonly pid: number | null,
  ) {
    super(
      `Bookdrop is already running with the data folder ${dataDir}${pid ? ` (pid ${pid})` : ''}: ` +
        'stop that one first, or give this one another folder (--data-dir).',
    )
  }
}

/** The queue database exists but cannot be read as one. */
export class CorruptDatabaseError extends Error {
  override readonly name = 'CorruptDatabaseError'
  readonly code = 'corrupt_database'
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(
      `The upload queue database ${path} cannot be read (${detail}). ` +
        'Bookdrop can move it aside (nothing is deleted) and start with an empty queue: ' +
        'start again with --reset-queue, or choose "Move it aside" in the desktop app.',
    )
  }
}

/**
 * The words a command-line host (headless, the web host) prints when it cannot have the data
 * directory, and its exit code (3 and 4, as README lists them); null for any other failure.
 */
export function startupRefusal(e: unknown, dataDir: string): { code: 3 | 4; message: string } | null {
  if (e instanceof CorruptDatabaseError) {
    return {
      code: 3,
      message:
        `bookdrop: the upload queue database ${e.path} cannot be read (${e.detail}).\n` +
        'Start again with --reset-queue to move it aside (it is renamed, not deleted) and begin with an empty queue.',
    }
  }
  if (e instanceof AlreadyRunningError) {
    return {
      code: 4,
      message: `bookdrop: already running${e.pid ? ` (pid ${e.pid})` : ''} with the data folder ${dataDir}.`,
    }
  }
  return null
}

/** SQLite's answers for a file that is not (or no longer) a readable database. */
export function isCorruption(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB)/.test(code)
}

/** An exclusive hold on a data directory, until release() or the end of the process. */
export interface DataDirLock {
  release(): void
}

/**
 * Takes the data directory for this process. The lock is an exclusive SQLite transaction on
 * `bookdrop.lock`: the OS drops it when the process exits, even on kill -9, so it is never stale.
 * Throws AlreadyRunningError naming the other process's pid.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirPrivate(dataDir)
  createPrivateFile(join(dataDir, LOCK_FILE))
  const db = new Database(join(dataDir, LOCK_FILE), { timeout: 0 })
  try {
    db.exec('PRAGMA busy_timeout = 0')
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
  } catch (e) {
    db.close()
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) {
      let pid: number | null = null
      try {
        const n = Number(readFileSync(join(dataDir, PID_FILE), 'utf8').trim())
        pid = Number.isInteger(n) && n > 0 ? n : null
      } catch {
        // no pid file yet: the other process is starting
      }
      throw new AlreadyRunningError(dataDir, pid)
    }
    throw e
  }
  const pidPath = join(dataDir, PID_FILE)
  writeFileSync(pidPath, `${process.pid}\n`, { mode: PRIVATE_FILE_MODE })
  let held = true
  return {
    release() {
      if (!held) return
      held = false
      try {
        if (readFileSync(pidPath, 'utf8').trim() === String(process.pid)) unlinkSync(pidPath)
      } catch {
        // gone already
      }
      try {
        db.exec('ROLLBACK')
      } catch {
        // nothing to roll back
      }
      db.close()
    },
  }
}

/**
 * Moves an unreadable queue database (and its -wal and -shm files) aside as
 * `<name>.corrupt-<timestamp>`; nothing is deleted. Returns the new path of the database file.
 */
export function moveDatabaseAside(path: string, now = new Date()): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-')
  const target = `${path}.corrupt-${stamp}`
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix)
  }
  return target
}

export function databasePath(dataDir: string): string {
  return join(dataDir, DB_FILE)
}

/**
 * The queue database, or CorruptDatabaseError when it exists but cannot be read (moved aside
 * first with `resetQueue`).
 */
export function openQueueDatabase(opts: { dataDir: string; resetQueue?: boolean }): {
db: Db
report: { movedAside: string | null }
} {
  const path = databasePath(opts.dataDir)
  const attempt = (): Db => {
    // Owner-only before SQLite opens it: its -wal and -shm files take the database's mode.
    createPrivateFile(path)
    const db = new Db(path)
    try {
      // Reads the schema and an index: a file that is not a database, or a damaged one, says so here.
      db.get('SELECT COUNT(*) AS n FROM uploads')
      return db
    } catch (e) {
      db.close()
      throw e
    }
  }
  try {
    return { db: attempt(), report: { movedAside: null } }
  } catch (e) {
    // A file there that SQLite cannot use as its database: damaged, not a database at all, or not
    // even a file (libsql says "ConnectionFailed(…: 14)", SQLITE_CANTOPEN, for a folder).
    const code = String((e as { code?: unknown }).code ?? '')
    const unreadable =
      isCorruption(e) ||
      (existsSync(path) && (/^SQLITE_CANTOPEN/.test(code) || /ConnectionFailed|unable to open/i.test((e as Error).message)))
    if (!unreadable) throw e
    const detail = (e as Error).message
    if (!opts.resetQueue) throw new CorruptDatabaseError(path, detail)
    const movedAside = moveDatabaseAside(path)
    return { db: attempt(), report: { movedAside } }
  }
}
