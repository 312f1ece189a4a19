/**
 * Counts that are true (issue 26): what became of files given to Bookdrop, counted by what really
 * happened — added, skipped (and why), already sent, not taken, sent, failed — never one for another.
 * Used by the toast after files are added, the capture screen's batch summary and its announcer.
 */
import { defineMessages } from 'react-intl'
import { getIntl } from './i18n'
import { TARGET_NOUNS } from './labels'
import type { AiTarget, IntakeOutcome, ProfileState, Upload, UploadStatus } from './types'
import messages from './batch.messages.json' with { type: 'json' }

/** A file's extension as "exe" (lower case), or '' without one. */
function extension(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : ''
}

const m = defineMessages(messages.m)

const SKIP_WORDS = defineMessages(messages.SKIP_WORDS)

/** Clauses of one summary, in the language's list style ("a, b, c"). */
function clauses(parts: string[]): string {
  return getIntl().formatList(parts, { type: 'unit', style: 'short' })
}

/** Why files were skipped, in few words: ".exe files are not receipts; 1 empty". */
export function skipReasons(rows: readonly Pick<Upload, 'name' | 'reason' | 'target'>[]): string {
  const kinds = new Map<AiTarget, Set<string>>()
  const other = new Map<keyof typeof SKIP_WORDS, number>()
  for (const r of rows) {
    if (r.reason === 'unsupported_kind') {
      const ext = extension(r.name)
      const set = kinds.get(r.target) ?? new Set<string>()
      set.add(ext ? `.${ext}` : '')
      kinds.set(r.target, set)
    } else {
      const why = r.reason ?? 'none'
      other.set(why, (other.get(why) ?? 0) + 1)
    }
  }
  const intl = getIntl()
  const parts: string[] = []
  for (const [target, exts] of kinds) {
    const list = [...exts].sort()
    const named = list.filter((e) => e !== '')
    const bare = list.length > named.length
    const values = {
      extensions: intl.formatList(named, { type: 'conjunction', style: 'short' }),
      targetNoun: TARGET_NOUNS[target],
    }
    parts.push(
      intl.formatMessage(
        named.length ? (bare ? m.kindsAndBareNotTarget : m.kindsNotTarget) : m.bareNotTarget,
        values,
      ),
    )
  }
  for (const [why, n] of other) parts.push(intl.formatMessage(SKIP_WORDS[why], { count: n }))
  return parts.join('; ')
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
  const intl = getIntl()
  const parts: string[] = []
  if (added) parts.push(intl.formatMessage(m.added, { count: added }))
  if (skipped.length)
    parts.push(intl.formatMessage(m.skipped, { count: skipped.length, reasons: skipReasons(skipped) }))
  if (duplicates) parts.push(intl.formatMessage(m.alreadySent, { count: duplicates }))
  // Issue 33: held for the person (Send anyway or Discard on its row).
  if (held) parts.push(intl.formatMessage(m.held, { count: held }))
  if (ignored) parts.push(intl.formatMessage(m.notTaken, { count: ignored }))
  if (parts.length === 0) return null
  const problems = skipped.length > 0 || ignored > 0 || held > 0
  const message = intl.formatMessage(problems ? m.withProblems : m.withoutProblems, {
    summary: clauses(parts),
  })
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
  const intl = getIntl()
  const rest: string[] = []
  if (c.skipped)
    rest.push(
      intl.formatMessage(m.skipped, {
        count: c.skipped,
        reasons: skipReasons(rows.filter((u) => u.status === 'skipped')),
      }),
    )
  if (c.duplicate) rest.push(intl.formatMessage(m.alreadySent, { count: c.duplicate }))
  if (c.failed) rest.push(intl.formatMessage(m.failed, { count: c.failed }))
  if (c.cancelled) rest.push(intl.formatMessage(m.cancelled, { count: c.cancelled }))
  if (c.superseded) rest.push(intl.formatMessage(m.superseded, { count: c.superseded }))
  if (c.finished) {
    const sent = c.sent ? intl.formatMessage(m.sent, { count: c.sent }) : intl.formatMessage(m.nothingSent)
    return clauses([sent, ...rest])
  }
  const head = intl.formatMessage(m.sentOf, { sent: c.sent, files: c.files })
  const going = c.onTheWay ? [intl.formatMessage(m.onTheWay, { count: c.onTheWay })] : []
  const reading = c.processing ? [intl.formatMessage(m.beingRead, { count: c.processing })] : []
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
  const intl = getIntl()
  if (c.finished) return intl.formatMessage(m.done, { summary: batchSummary(rows, c) })
  if (c.onTheWay > 0) {
    const waiting = { count: c.onTheWay }
    if (state === 'paused') return intl.formatMessage(m.paused, waiting)
    if (state === 'unreachable' || state === 'offline' || state === 'not_api')
      return intl.formatMessage(m.unreachable, waiting)
    if (state === 'rate_limited') return intl.formatMessage(m.rateLimited, waiting)
    if (state !== 'active') return intl.formatMessage(m.stopped, waiting)
    return intl.formatMessage(m.sending, { count: c.files })
  }
  return intl.formatMessage(m.allSent, { count: c.processing })
}
