/**
 * Counts that are true (issue 26): what became of files given to Bookdrop, counted by what really
 * happened — added, skipped (and why), already sent, not taken, sent, failed — never one for another.
 * Used by the toast after files are added, the capture screen's batch summary and its announcer.
 */
import { defineMessages } from 'react-intl'
import { formatNumber, plural } from './format'
import { getIntl } from './i18n'
import { TARGET_NOUNS } from './labels'
import type { AiTarget, IntakeOutcome, ProfileState, Upload, UploadStatus } from './types'

const m = defineMessages({
  held: {
    id: 'duplicates.batchHeld',
    defaultMessage: '{count, plural, one {# held as a possible duplicate} other {# held as possible duplicates}}',
  },
})

/** A file's extension as "exe" (lower case), or '' without one. */
function extension(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : ''
}

function joinWords(words: string[]): string {
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}

/** Why files were skipped, in few words: ".exe files are not receipts; 1 empty". */
export function skipReasons(rows: readonly Pick<Upload, 'name' | 'reason' | 'target'>[]): string {
  const kinds = new Map<AiTarget, Set<string>>()
  const other = new Map<string, number>()
  for (const r of rows) {
    if (r.reason === 'unsupported_kind') {
      const ext = extension(r.name)
      const set = kinds.get(r.target) ?? new Set<string>()
      set.add(ext ? `.${ext}` : '')
      kinds.set(r.target, set)
    } else {
      const why = r.reason ? SKIP_WORDS[r.reason] : 'not sent'
      other.set(why, (other.get(why) ?? 0) + 1)
    }
  }
  const parts: string[] = []
  for (const [target, exts] of kinds) {
    const list = [...exts].sort()
    const named = list.filter((e) => e !== '')
    const subject = named.length ? `${joinWords(named)} files` : ''
    const bare = list.length > named.length ? 'files without an extension' : ''
    parts.push(`${[subject, bare].filter(Boolean).join(' and ')} are not ${TARGET_NOUNS[target]}`)
  }
  for (const [why, n] of other) parts.push(`${formatNumber(n)} ${why}`)
  return parts.join('; ')
}

const SKIP_WORDS: Record<NonNullable<Upload['reason']>, string> = {
  unsupported_kind: 'not of an accepted kind',
  too_large: 'too large',
  empty: 'empty',
  unreadable: 'could not be read',
  vanished: 'gone before it was read',
  existed_before: 'in the folder before it was watched',
  outside_folder: 'outside the folder (a link)',
  mismatch: 'not what the name says',
  not_prepared: 'not prepared (a photo that could not be read)',
  no_receipt: 'a mail with no receipt',
}

/**
 * What became of files just given to Bookdrop, for the toast: "2 added, 1 skipped: .exe files are
 * not receipts". `notTaken`: files refused before they reached the engine (or a call that failed).
 */
export function intakeSummary(
  outcomes: readonly IntakeOutcome[],
  notTaken: number,
): { message: string; tone: 'success' | 'info' | 'warning' } | null {
  let added = 0
  let duplicates = 0
  let held = 0
  let ignored = notTaken
  const skipped: Upload[] = []
  for (const o of outcomes) {
    if (o.kind === 'queued') added++
    else if (o.kind === 'duplicate') duplicates++
    else if (o.kind === 'held') held++
    else if (o.kind === 'skipped') skipped.push(o.upload)
    else ignored++
  }
  const parts: string[] = []
  if (added) parts.push(`${formatNumber(added)} added`)
  if (skipped.length) parts.push(`${formatNumber(skipped.length)} skipped: ${skipReasons(skipped)}`)
  if (duplicates) parts.push(`${formatNumber(duplicates)} already sent before`)
  // Issue 33: held for the person (Send anyway or Discard on its row).
  if (held) parts.push(getIntl().formatMessage(m.held, { count: held }))
  if (ignored) parts.push(`${formatNumber(ignored)} not taken`)
  if (parts.length === 0) return null
  const problems = skipped.length > 0 || ignored > 0 || held > 0
  const message = `${parts.join(', ')}${problems ? '. See Needs attention.' : '.'}`
  return { message, tone: problems ? 'warning' : added ? 'success' : 'info' }
}

/** A batch's files by what became of them. */
export interface BatchCounts {
  files: number
  /** Accepted by the server (being read, or with a record). */
  sent: number
  /** Still to be sent: queued, uploading, waiting to retry. */
  onTheWay: number
  processing: number
  skipped: number
  duplicate: number
  failed: number
  cancelled: number
  /** Changed on disk before sending (its new version is another row). */
  superseded: number
  finished: boolean
}

const ON_THE_WAY: readonly UploadStatus[] = ['queued', 'uploading', 'waiting_retry']

/** `reading`: files of the batch are still being read (an add in progress): it is not over yet. */
export function batchCounts(rows: readonly Upload[], reading = false): BatchCounts {
  const c: BatchCounts = {
    files: rows.length,
    sent: 0,
    onTheWay: 0,
    processing: 0,
    skipped: 0,
    duplicate: 0,
    failed: 0,
    cancelled: 0,
    superseded: 0,
    finished: !reading,
  }
  for (const u of rows) {
    if (ON_THE_WAY.includes(u.status)) c.onTheWay++
    else if (u.status === 'processing') {
      c.sent++
      c.processing++
    } else if (u.status === 'completed') c.sent++
    else if (u.status === 'skipped') c.skipped++
    else if (u.status === 'duplicate') c.duplicate++
    else if (u.status === 'failed') c.failed++
    else if (u.status === 'cancelled') c.cancelled++
    else if (u.status === 'superseded') c.superseded++
    if (ON_THE_WAY.includes(u.status) || u.status === 'processing') c.finished = false
  }
  return c
}

/**
 * The batch in one line, each count for what it is: "2 sent, 1 skipped: .exe files are not
 * receipts" once it is over; "1 of 3 files sent · 2 on the way" while it runs.
 */
export function batchSummary(rows: readonly Upload[], c: BatchCounts = batchCounts(rows)): string {
  const rest: string[] = []
  if (c.skipped)
    rest.push(
      `${formatNumber(c.skipped)} skipped: ${skipReasons(rows.filter((u) => u.status === 'skipped'))}`,
    )
  if (c.duplicate) rest.push(`${formatNumber(c.duplicate)} already sent before`)
  if (c.failed) rest.push(`${formatNumber(c.failed)} failed`)
  if (c.cancelled) rest.push(`${formatNumber(c.cancelled)} cancelled`)
  if (c.superseded) rest.push(`${formatNumber(c.superseded)} changed before sending`)
  if (c.finished) {
    const sent = c.sent ? `${formatNumber(c.sent)} sent` : 'Nothing sent'
    return [sent, ...rest].join(', ')
  }
  const head = `${formatNumber(c.sent)} of ${plural(c.files, 'file')} sent`
  const going = c.onTheWay ? [`${formatNumber(c.onTheWay)} on the way`] : []
  const reading = c.processing ? [`${formatNumber(c.processing)} being read by the server`] : []
  return [head, ...going, ...reading, ...rest].join(' · ')
}

/**
 * What a screen reader is told about the batch: once when it starts, when it must wait (paused, no
 * connection, rate limited), when everything is sent and the server reads it, and when it is over.
 * Between those moments nothing is said (a 300-file batch is not read out file by file).
 */
export function batchAnnouncement(
  rows: readonly Upload[],
  state: ProfileState,
  reading = false,
): string | null {
  if (rows.length === 0) return null
  const c = batchCounts(rows, reading)
  // Files still being read: nothing to say until they are all in (the toast then says what came in).
  if (reading && c.onTheWay === 0 && c.processing === 0) return null
  if (c.finished) return `Batch done: ${batchSummary(rows, c)}.`
  if (c.onTheWay > 0) {
    if (state === 'paused') return `Sending paused: ${plural(c.onTheWay, 'file')} wait until you resume.`
    if (state === 'unreachable' || state === 'offline' || state === 'not_api')
      return `Sending waits: the server cannot be reached; ${plural(c.onTheWay, 'file')} wait in the queue, nothing is lost.`
    if (state === 'rate_limited')
      return `Sending slowed down by the server; ${plural(c.onTheWay, 'file')} wait.`
    if (state !== 'active')
      return `Sending stopped: ${plural(c.onTheWay, 'file')} wait; see the message at the top.`
    return `Sending ${plural(c.files, 'file')}.`
  }
  return `All files sent; the server is reading ${plural(c.processing, 'file')}.`
}
