/**
 * Plain-text lines about uploads, for the headless mode and logs. Never holds a key.
 */
import type { UploadStatus, UploadView as Upload } from '../../contract/types'
import type { RecordSummary } from '../../contract/review'
import { printable } from './names'
import { CONNECTION_ERROR_CODES } from './api/errors'

const WAITING_FOR_CONNECTION: ReadonlySet<string> = new Set(CONNECTION_ERROR_CODES)

const LABEL: Record<UploadStatus, string> = {
  queued: 'queued',
  uploading: 'sending',
  waiting_retry: 'retrying',
  processing: 'processing',
  completed: 'done',
  failed: 'FAILED',
  duplicate: 'duplicate',
  skipped: 'skipped',
  cancelled: 'cancelled',
  superseded: 'changed',
}

/**
 * One line about a row: names, paths and messages printable (names.ts), so a file name holding a
 * newline or a bidi control can never forge or reorder a line.
 */
export function describeUpload(u: Upload): string {
  return printable(describeRaw(u))
}

function describeRaw(u: Upload): string {
  const head = `${LABEL[u.status].padEnd(10)} #${u.id} ${u.name}`
  switch (u.status) {
    case 'uploading':
      return `${head} (attempt ${u.attempts})`
    case 'waiting_retry': {
      // Waiting for the path to the server: tried again when the profile's next probe works.
      if (u.errorCode && WAITING_FOR_CONNECTION.has(u.errorCode)) return `${head}: ${u.lastError ?? 'waiting'}`
      const secs = u.nextAttemptAt ? Math.max(0, Math.round((u.nextAttemptAt - Date.now()) / 1000)) : 0
      return `${head}: ${u.lastError ?? 'will retry'} (next try in ${secs} s)`
    }
    case 'processing':
      return `${head} job ${u.jobReference ?? '?'}`
    case 'completed': {
      const what = u.record ? ` · ${recordSummaryText(u.record)}${u.recordCount > 1 ? ` (${u.recordCount} records)` : ''}` : ''
      return `${head} -> ${u.recordType ?? u.target} ${u.recordUuid ?? ''}${what}${u.movedTo ? ` (moved to ${u.movedTo})` : ''}`.trimEnd()
    }
    case 'queued':
      return u.note ? `${head} (${u.note})` : head
    case 'failed':
    case 'skipped':
    case 'duplicate':
    case 'cancelled':
    case 'superseded':
      return `${head}: ${u.lastError ?? u.reason ?? ''}`
    default:
      return head
  }
}

/** A money amount with thousands separators and two places ("12400" → "12,400.00"). */
export function moneyText(total: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(total)
  if (!m) return total
  const frac = (m[3] ?? '').padEnd(2, '0')
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`
}

/**
 * What a record is, on one line (issue 32): "Flour Mills · 2026-03-03 · NGN 12,400.00"; a missing
 * part is "no vendor", "no date", "no total"; a record gone from the server says so.
 */
export function recordSummaryText(r: RecordSummary): string {
  if (r.deletedOnServer) return 'deleted on the server'
  const total = r.total === null ? 'no total' : `${r.currency ? `${r.currency} ` : ''}${moneyText(r.total)}`
  return [r.vendor ?? 'no vendor', r.date ?? 'no date', total].join(' · ')
}

export function summaryLine(rows: readonly Pick<Upload, 'status'>[]): string {
  const count = (s: UploadStatus) => rows.filter((u) => u.status === s).length
  const parts: string[] = [`${count('completed')} completed`, `${count('failed')} failed`]
  for (const s of ['skipped', 'duplicate', 'cancelled', 'queued', 'waiting_retry', 'processing'] as const) {
    const n = count(s)
    if (n > 0) parts.push(`${n} ${s.replace('_', ' ')}`)
  }
  return `summary: ${parts.join(', ')} (${rows.length} file${rows.length === 1 ? '' : 's'})`
}
