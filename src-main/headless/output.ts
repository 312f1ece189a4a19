/**
 * What a headless run prints: where it starts, one line per file as it moves (and per change of
 * the folder, the connection and each mailbox), and the summary at the end. The words of an
 * upload's line and of the summary come from core/report.ts, which the run loads with the engine
 * and hands in here.
 */
import type { UploadView } from '../../contract/types'
import type { Engine } from '../core/engine'
import { printable } from '../core/names'
import { temporaryDataNotice } from '../core/paths'
import { privacyNotice } from '../core/store/private-dir'
import type { Args } from './args'
import type { Connection } from './connect'

export interface LineWriter {
  line(text: string): void
  flush(): void
}

/**
 * Lines for stdout, written together once per turn of the event loop: a drop of 300 files makes
 * about 1,200 lines, and one write each (console.log, synchronous on a pipe) was a fifth of the
 * CPU the whole run used. Flushed before the process ends.
 */
export function lineWriter(): LineWriter {
  let pending: string[] = []
  let scheduled = false
  const flush = () => {
    scheduled = false
    if (pending.length === 0) return
    const text = `${pending.join('\n')}\n`
    pending = []
    process.stdout.write(text)
  }
  return {
    line(text) {
      // One line each, whatever a file name or a server's message holds (names.ts).
      pending.push(printable(text))
      if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
    },
    flush,
  }
}

/** The lines before the first file: the data directory made private, a queue moved aside, what is watched. */
export function printStart(args: Args, engine: Engine, conn: Connection): void {
  const privacy = privacyNotice(args.dataDir, engine.openReport.madePrivate)
  if (privacy) console.log(privacy)
  if (engine.openReport.movedAside) {
    console.log(
      `bookdrop: the unreadable queue database was moved aside to ${engine.openReport.movedAside}; starting with an empty queue`,
    )
  } else if (args.resetQueue) {
    console.log('bookdrop: --reset-queue: the queue database is readable, so nothing was moved')
  }
  const what = [...args.watch, ...args.mail.map((m) => `${m.user}@${m.host}/${m.mailbox}`)]
    .filter(Boolean)
    .join(' and ')
  console.log(
    printable(`bookdrop: ${args.watch.length ? 'watching' : 'reading'} ${what} for ${args.target} as ${conn.label}; data in ${args.dataDir}`),
  )
  if (args.temporaryData) console.log(temporaryDataNotice(args.dataDir))
}

export interface Followed {
  /**
   * Every row this run saw: its last status (the summary reads no database). A watch that runs for
   * days must not keep a view of every file it sent (about 1 KB each).
   */
  seen: Map<number, UploadView['status']>
  /** The whole view of the rows whose last event left them failed (the summary names them). */
  failed: Map<number, UploadView>
  /** A mail account's label by its id, filled in as the run saves its accounts. */
  mailLabels: Map<string, string>
}

/**
 * A line for each event of the engine. With --once a mailbox's problem is told once, at the end;
 * watching, as it happens.
 */
export function followEvents(
  engine: Engine,
  out: LineWriter,
  once: boolean,
  describeUpload: (u: UploadView) => string,
): Followed {
  const seen = new Map<number, UploadView['status']>()
  const failed = new Map<number, UploadView>()
  engine.events.on('upload', ({ upload, previous }) => {
    seen.set(upload.id, upload.status)
    if (upload.status === 'failed') failed.set(upload.id, upload)
    else failed.delete(upload.id)
    // A row that just completed with a record is told once what it became was read (issue 32: the
    // engine tells it again then, read or not), so its line carries the summary.
    if (upload.status === 'completed' && previous !== 'completed' && upload.recordUuid !== null && upload.record === null) return
    out.line(describeUpload(upload))
  })
  engine.events.on('folder', (f) => {
    if (f.state === 'error' || f.state === 'polling') out.line(`folder ${f.state}: ${f.message ?? ''}`)
  })
  let lastState = 'active'
  engine.events.on('profile', (p) => {
    if (p.state === 'unreachable' || p.state === 'not_api' || p.state === 'offline') {
      out.line(`waiting (${p.state.replace('_', ' ')}): ${p.message ?? ''}`)
    } else if (p.state === 'active' && ['unreachable', 'not_api', 'offline'].includes(lastState)) {
      out.line('connection: the API answers again; uploads resume')
    } else {
      out.line(`uploads ${p.state}${p.message ? `: ${p.message}` : ''}`)
    }
    lastState = p.state
  })
  engine.events.on('notice', (n) => out.line(`${n.level}: ${n.message}`))
  const mailLabels = new Map<string, string>()
  const lastMailState = new Map<string, string>()
  engine.events.on('mail', (m) => {
    const label = mailLabels.get(m.accountId) ?? m.accountId
    const line = m.message ? `${m.state}: ${m.message}` : m.state
    if (lastMailState.get(m.accountId) === line) return
    lastMailState.set(m.accountId, line)
    // With --once a problem is told once, at the end; watching, as it happens.
    if (once && (m.state === 'error' || m.state === 'waiting')) return
    if (m.state === 'connected' || m.state === 'waiting' || m.state === 'error')
      out.line(m.message ? `mail ${m.state}: ${m.message}` : `mail ${label}: ${m.state}${m.idle ? ' (IDLE)' : ''}`)
  })
  return { seen, failed, mailLabels }
}

/** Why a --once run ended: every file settled, --max-wait passed, or a signal. */
export type FinishReason = 'idle' | 'max-wait' | 'signal'

/**
 * The summary: one line of counts, a line per failed file, the mailboxes' problems (stderr) and,
 * for --once, what is left and why.
 */
export function printSummary(s: {
  summary: string
  failed: UploadView[]
  mailProblems: string[]
  left: UploadView[]
  held: ReturnType<Engine['profileState']>
  args: Pick<Args, 'once' | 'maxWaitMs'>
  why: FinishReason
}): void {
  const { failed, left, held, args, why } = s
  console.log(s.summary)
  for (const u of failed) {
    const which = u.mailSubject !== null ? `mail "${u.mailSubject}" (${u.name})` : u.path
    console.log(printable(`failed: ${which}: ${u.lastError ?? u.errorCode ?? 'no reason given'}`))
  }
  for (const p of new Set(s.mailProblems)) console.error(printable(p))
  if (args.once && left.length > 0) {
    const reason =
      why === 'max-wait'
        ? `--max-wait of ${args.maxWaitMs / 1000} s passed`
        : why === 'signal'
          ? 'stopped'
          : 'waiting for something only a person can fix'
    console.log(`left: ${left.length} file${left.length === 1 ? '' : 's'} not finished (${reason}); they resume at the next run:`)
    if (held.state !== 'active' && held.message) console.log(printable(`left: why: ${held.message}`))
    for (const u of left)
      console.log(printable(`left: ${u.path}: ${u.status.replace('_', ' ')}${u.lastError ? `: ${u.lastError}` : ''}`))
  }
}
