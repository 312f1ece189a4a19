/**
 * SQLite through libsql's better-sqlite3-compatible API: an N-API module, so one `npm install`
 * serves Node (tests, headless) and Electron without a rebuild (design.md §1).
 *
 * WAL mode with synchronous=NORMAL: a commit survives a process crash (kill -9), which is the
 * durability the upload queue needs; only an OS crash can lose the last commits.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Database, type LibsqlDatabase } from './libsql'
import { RECORDS_MIGRATION } from './records-schema'

type RawDatabase = InstanceType<typeof Database>
type Statement = LibsqlDatabase.Statement<unknown[]>

const MIGRATIONS: string[] = [
  // 1: uploads, folders, settings
  `
  CREATE TABLE uploads (
    id INTEGER PRIMARY KEY,
    profile_id TEXT NOT NULL,
    target TEXT NOT NULL,
    source TEXT NOT NULL,
    folder_id TEXT,
    path TEXT NOT NULL,
    name TEXT NOT NULL,
    size INTEGER,
    mtime_ms INTEGER,
    sha256 TEXT,
    prompt TEXT NOT NULL,
    process_type TEXT NOT NULL DEFAULT 'async',
    status TEXT NOT NULL,
    reason TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_error TEXT,
    error_code TEXT,
    http_status INTEGER,
    idempotency_key TEXT NOT NULL,
    job_reference TEXT,
    polls INTEGER NOT NULL DEFAULT 0,
    record_uuid TEXT,
    record_type TEXT,
    duplicate_of INTEGER,
    forced INTEGER NOT NULL DEFAULT 0,
    after_upload TEXT NOT NULL DEFAULT 'leave',
    archive_dir TEXT,
    moved_to TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    completed_at INTEGER
  );
  CREATE INDEX uploads_due ON uploads(status, next_attempt_at);
  CREATE INDEX uploads_content ON uploads(profile_id, target, sha256);
  CREATE INDEX uploads_version ON uploads(path, size, mtime_ms);
  CREATE INDEX uploads_created ON uploads(created_at);
  CREATE INDEX uploads_name ON uploads(name);
  CREATE TABLE folders (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    added_at INTEGER NOT NULL
  );
  CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  // 2: indexes that answer the scheduler and the history screen without sorting the table.
  // (IF NOT EXISTS: databases made by development builds may already have some of them.)
  `
  DROP INDEX IF EXISTS uploads_due;
  -- "What is due next?", overall and per profile (so a paused profile's rows cost nothing to skip).
  CREATE INDEX IF NOT EXISTS uploads_send ON uploads(next_attempt_at, id) WHERE status IN ('queued', 'waiting_retry');
  CREATE INDEX IF NOT EXISTS uploads_poll ON uploads(next_attempt_at, id) WHERE status = 'processing';
  CREATE INDEX IF NOT EXISTS uploads_send_by_profile ON uploads(profile_id, next_attempt_at, id)
    WHERE status IN ('queued', 'waiting_retry');
  CREATE INDEX IF NOT EXISTS uploads_poll_by_profile ON uploads(profile_id, next_attempt_at, id)
    WHERE status = 'processing';
  -- History of one profile, newest first, and its counts by status.
  CREATE INDEX IF NOT EXISTS uploads_profile_created ON uploads(profile_id, created_at, id);
  CREATE INDEX IF NOT EXISTS uploads_profile_status ON uploads(profile_id, status);
  -- Search by file name counts its matches from this index alone (LIKE '%…%' cannot seek).
  CREATE INDEX IF NOT EXISTS uploads_profile_name ON uploads(profile_id, name);
  `,
  // 3: the job deadline counts from when the server accepted the file; skipped rows of a folder are
  // looked at again on every rescan.
  `
  ALTER TABLE uploads ADD COLUMN accepted_at INTEGER;
  CREATE INDEX IF NOT EXISTS uploads_skipped_by_folder ON uploads(folder_id) WHERE status = 'skipped';
  `,
  // 4: "what does the store know of this file?" (intake, once per file), newest first: without it
  // SQLite walked the whole table by id for each file, and a scan of N files cost N² row visits.
  `
  CREATE INDEX IF NOT EXISTS uploads_file ON uploads(path, profile_id, target, id);
  `,
  // 5 (issue 21): a path that is not UTF-8 keeps its exact bytes (path then holds its printable
  // form); a row may carry a note (a file sent although it looked unfinished); duplicates are found
  // by their original when it ends without being sent.
  `
  ALTER TABLE uploads ADD COLUMN path_bytes BLOB;
  ALTER TABLE uploads ADD COLUMN note TEXT;
  CREATE INDEX IF NOT EXISTS uploads_duplicates ON uploads(duplicate_of) WHERE status = 'duplicate';
  `,
  // 6 (issue 25): a photo is prepared before it is hashed and sent (HEIC → JPEG, oriented, scaled,
  // location stripped): the row keeps the original's path and size, and the prepared file's here.
  `
  ALTER TABLE uploads ADD COLUMN prepared_path TEXT;
  ALTER TABLE uploads ADD COLUMN prepared_size INTEGER;
  ALTER TABLE uploads ADD COLUMN prepared_mtime_ms INTEGER;
  `,
  // 7 (issue 24): mail intake. A mail attachment is an upload row with source 'mail', carrying its
  // sender and subject for the history; the mail's identity (account, mailbox, UIDVALIDITY, UID,
  // Message-ID, part, sha256) and its progress live in mail_* tables next to it. The history filters
  // by source. (Self-contained: other branches may append migrations before this one.)
  `
  ALTER TABLE uploads ADD COLUMN mail_from TEXT;
  ALTER TABLE uploads ADD COLUMN mail_subject TEXT;
  CREATE INDEX IF NOT EXISTS uploads_profile_source ON uploads(profile_id, source, created_at, id);
  CREATE INDEX IF NOT EXISTS uploads_duplicate_of ON uploads(duplicate_of) WHERE duplicate_of IS NOT NULL;
  CREATE TABLE IF NOT EXISTS mail_accounts (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    added_at INTEGER NOT NULL
  );
  CREATE TABLE IF NOT EXISTS mail_rules (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    config TEXT NOT NULL,
    added_at INTEGER NOT NULL
  );
  -- What a rule has read of its mailbox: under which UIDVALIDITY, up to which UID, with which
  -- start date and filters (a change of any of them reads the mailbox again).
  CREATE TABLE IF NOT EXISTS mail_rule_state (
    rule_id TEXT PRIMARY KEY,
    uid_validity TEXT NOT NULL,
    last_uid INTEGER NOT NULL DEFAULT 0,
    signature TEXT NOT NULL,
    updated_at INTEGER NOT NULL
  );
  -- One mail as found in one mailbox (the same mail in two mailboxes is two rows with one
  -- message_key): open while its receipts wait for records, recorded once they all have one, done
  -- once the after-action was applied; stale when its mailbox's UIDVALIDITY changed.
  CREATE TABLE IF NOT EXISTS mail_messages (
    id INTEGER PRIMARY KEY,
    profile_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    rule_id TEXT NOT NULL,
    mailbox TEXT NOT NULL,
    uid_validity TEXT NOT NULL,
    uid INTEGER NOT NULL,
    message_key TEXT NOT NULL,
    message_id TEXT,
    sender TEXT NOT NULL,
    subject TEXT NOT NULL,
    received_at INTEGER,
    receipts INTEGER NOT NULL,
    state TEXT NOT NULL,
    after_action TEXT,
    note TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    UNIQUE (account_id, mailbox, uid_validity, uid)
  );
  CREATE INDEX IF NOT EXISTS mail_messages_key ON mail_messages(profile_id, message_key);
  CREATE INDEX IF NOT EXISTS mail_messages_pending ON mail_messages(rule_id, state) WHERE state IN ('open', 'recorded');
  -- A receipt of a mail: the upload row it became (two copies of one mail share it).
  CREATE TABLE IF NOT EXISTS mail_parts (
    id INTEGER PRIMARY KEY,
    mail_id INTEGER NOT NULL,
    part TEXT NOT NULL,
    name TEXT NOT NULL,
    size INTEGER,
    sha256 TEXT,
    upload_id INTEGER NOT NULL,
    UNIQUE (mail_id, part)
  );
  CREATE INDEX IF NOT EXISTS mail_parts_upload ON mail_parts(upload_id);
  `,
  // 8 (issue 31): the file name and prompt sent under a row's Idempotency-Key, fixed at its first
  // send, so a retry sends the same body after the file was renamed or moved (the server would
  // refuse the key otherwise). Null: not sent yet, or rows of before (they send what they hold).
  // (Self-contained: other branches may append migrations before this one.)
  `
  ALTER TABLE uploads ADD COLUMN sent_name TEXT;
  ALTER TABLE uploads ADD COLUMN sent_prompt TEXT;
  `,
  // 9 (issue 32): what each receipt became. The records table and, once, a row waiting to be read
  // for every upload already completed with a record (read lazily, when first shown). See
  // store/records.ts. (Self-contained: other branches may append migrations before this one.)
  RECORDS_MIGRATION,
]

export class Db {
  readonly raw: RawDatabase
  private cache = new Map<string, Statement>()

  constructor(readonly path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    this.raw = new Database(path, { timeout: 5000 })
    this.raw.exec('PRAGMA journal_mode = WAL')
    this.raw.exec('PRAGMA synchronous = NORMAL')
    this.raw.exec('PRAGMA foreign_keys = ON')
    this.raw.exec('PRAGMA busy_timeout = 5000')
    this.migrate()
  }

  private migrate(): void {
    this.raw.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
    const row = this.get<{ version: number }>('SELECT version FROM schema_version')
    let version = row?.version ?? 0
    if (!row) this.run('INSERT INTO schema_version (version) VALUES (0)')
    while (version < MIGRATIONS.length) {
      const sql = MIGRATIONS[version]!
      this.transaction(() => {
        this.raw.exec(sql)
        this.run('UPDATE schema_version SET version = ?', version + 1)
      })
      version++
    }
  }

  prepare(sql: string): Statement {
    let s = this.cache.get(sql)
    if (!s) {
      s = this.raw.prepare<unknown[]>(sql)
      this.cache.set(sql, s)
    }
    return s
  }

  run(sql: string, ...params: unknown[]): { changes: number; lastInsertRowid: number } {
    const r = this.prepare(sql).run(...params)
    return { changes: r.changes, lastInsertRowid: Number(r.lastInsertRowid) }
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.prepare(sql).all(...params) as T[]
  }

  /** Rows one at a time, for exports that must not hold the whole table in memory. */
  iterate<T>(sql: string, ...params: unknown[]): IterableIterator<T> {
    return this.raw.prepare<unknown[]>(sql).iterate(...params) as IterableIterator<T>
  }

  /** First row or undefined. libsql's `get` is a single native call (`all` iterates in JS), but it adds a `_metadata` key. */
  get<T>(sql: string, ...params: unknown[]): T | undefined {
    const row = this.prepare(sql).get(...params) as (T & { _metadata?: unknown }) | undefined
    if (row && typeof row === 'object') delete row._metadata
    return row ?? undefined
  }

  /**
   * A write with RETURNING: its first row. Runs the statement to completion (`all`), so a failed
   * commit (SQLITE_FULL, an I/O error) throws; `get` would hand back the row and lose the error.
   */
  returning<T>(sql: string, ...params: unknown[]): T | undefined {
    const rows = this.prepare(sql).all(...params) as (T & { _metadata?: unknown })[]
    const row = rows[0]
    if (row && typeof row === 'object') delete row._metadata
    return row ?? undefined
  }

  transaction<R>(fn: () => R): R {
    return this.raw.transaction(fn)()
  }

  close(): void {
    this.cache.clear()
    this.raw.close()
  }
}
