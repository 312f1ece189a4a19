/**
 * How an upload is stored: the uploads table's row (snake_case columns, 0/1 booleans) and the
 * mapping to and from the Upload main works with.
 */
import type { AiTarget } from '../../../../schemas'
import type { AfterUpload, SkipReason, UploadSource } from '../../../../contract/types'
import type { UploadStatus } from '../../lifecycle'
import { decodeFsName, encodeFsName, hasRawBytes, printable } from '../../names'
import type { Upload } from './types'

export interface Row {
  id: number
  profile_id: string
  target: string
  source: string
  folder_id: string | null
  path: string
  name: string
  size: number | null
  mtime_ms: number | null
  sha256: string | null
  prompt: string
  process_type: string
  status: string
  reason: string | null
  attempts: number
  next_attempt_at: number | null
  last_error: string | null
  error_code: string | null
  http_status: number | null
  idempotency_key: string
  job_reference: string | null
  accepted_at: number | null
  polls: number
  record_uuid: string | null
  record_type: string | null
  duplicate_of: number | null
  forced: number
  after_upload: string
  archive_dir: string | null
  moved_to: string | null
  /** The exact bytes of `path` when it is not UTF-8 (`path` then holds its printable form). */
  path_bytes: Uint8Array | null
  note: string | null
  created_at: number
  updated_at: number
  completed_at: number | null
  prepared_path: string | null
  prepared_size: number | null
  prepared_mtime_ms: number | null
  mail_from: string | null
  mail_subject: string | null
  sent_name: string | null
  sent_prompt: string | null
}

export function fromRow(r: Row): Upload {
  return {
    id: r.id,
    profileId: r.profile_id,
    target: r.target as AiTarget,
    source: r.source as UploadSource,
    folderId: r.folder_id,
    path: r.path_bytes ? decodeFsName(r.path_bytes) : r.path,
    name: r.name,
    size: r.size,
    mtimeMs: r.mtime_ms,
    sha256: r.sha256,
    prompt: r.prompt,
    processType: r.process_type === 'direct' ? 'direct' : 'async',
    status: r.status as UploadStatus,
    reason: r.reason as SkipReason | null,
    attempts: r.attempts,
    nextAttemptAt: r.next_attempt_at,
    lastError: r.last_error,
    errorCode: r.error_code,
    httpStatus: r.http_status,
    idempotencyKey: r.idempotency_key,
    jobReference: r.job_reference,
    acceptedAt: r.accepted_at,
    polls: r.polls,
    recordUuid: r.record_uuid,
    recordType: r.record_type,
    duplicateOf: r.duplicate_of,
    forced: r.forced === 1,
    afterUpload: r.after_upload as AfterUpload,
    archiveDir: r.archive_dir,
    movedTo: r.moved_to,
    note: r.note ?? null,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    completedAt: r.completed_at,
    preparedPath: r.prepared_path ?? null,
    preparedSize: r.prepared_size ?? null,
    preparedMtimeMs: r.prepared_mtime_ms ?? null,
    mailFrom: r.mail_from ?? null,
    mailSubject: r.mail_subject ?? null,
    sentName: r.sent_name ?? null,
    sentPrompt: r.sent_prompt ?? null,
    record: null,
    recordCount: 0,
  }
}

export const COLUMN: Record<keyof Omit<Upload, 'id' | 'localCopyRemoved' | 'record' | 'recordCount'>, string> = {
  profileId: 'profile_id',
  target: 'target',
  source: 'source',
  folderId: 'folder_id',
  path: 'path',
  name: 'name',
  size: 'size',
  mtimeMs: 'mtime_ms',
  sha256: 'sha256',
  prompt: 'prompt',
  processType: 'process_type',
  status: 'status',
  reason: 'reason',
  attempts: 'attempts',
  nextAttemptAt: 'next_attempt_at',
  lastError: 'last_error',
  errorCode: 'error_code',
  httpStatus: 'http_status',
  idempotencyKey: 'idempotency_key',
  jobReference: 'job_reference',
  acceptedAt: 'accepted_at',
  polls: 'polls',
  recordUuid: 'record_uuid',
  recordType: 'record_type',
  duplicateOf: 'duplicate_of',
  forced: 'forced',
  afterUpload: 'after_upload',
  archiveDir: 'archive_dir',
  movedTo: 'moved_to',
  note: 'note',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  completedAt: 'completed_at',
  preparedPath: 'prepared_path',
  preparedSize: 'prepared_size',
  preparedMtimeMs: 'prepared_mtime_ms',
  mailFrom: 'mail_from',
  mailSubject: 'mail_subject',
  sentName: 'sent_name',
  sentPrompt: 'sent_prompt',
}

/** A row's columns as the table's defaults leave them (schema in db.ts), for building an inserted row. */
export const ROW_DEFAULTS: Omit<
  Row,
  | 'id'
  | 'profile_id'
  | 'target'
  | 'source'
  | 'path'
  | 'name'
  | 'prompt'
  | 'status'
  | 'idempotency_key'
  | 'created_at'
  | 'updated_at'
> = {
  folder_id: null,
  size: null,
  mtime_ms: null,
  sha256: null,
  process_type: 'async',
  reason: null,
  attempts: 0,
  next_attempt_at: null,
  last_error: null,
  error_code: null,
  http_status: null,
  job_reference: null,
  accepted_at: null,
  polls: 0,
  record_uuid: null,
  record_type: null,
  duplicate_of: null,
  forced: 0,
  after_upload: 'leave',
  archive_dir: null,
  moved_to: null,
  path_bytes: null,
  note: null,
  completed_at: null,
  prepared_path: null,
  prepared_size: null,
  prepared_mtime_ms: null,
  mail_from: null,
  mail_subject: null,
  sent_name: null,
  sent_prompt: null,
}

/**
 * How a path is stored: as it is when it is UTF-8; otherwise its printable form in `path` (what the
 * history shows and searches) and its exact bytes in `path_bytes` (what opens the file).
 */
export function storedPath(p: string): { path: string; path_bytes: Buffer | null } {
  return hasRawBytes(p) ? { path: printable(p), path_bytes: encodeFsName(p) } : { path: p, path_bytes: null }
}

/** `AND profile_id NOT IN (?, …)` for paused profiles, or nothing; the ids follow as parameters. */
export function notIn(profiles: readonly string[]): string {
  return profiles.length ? `AND profile_id NOT IN (${profiles.map(() => '?').join(', ')})` : ''
}

/** A value as SQLite stores it (booleans as 0/1, undefined as NULL). */
export function toDb(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  return v === undefined ? null : v
}
