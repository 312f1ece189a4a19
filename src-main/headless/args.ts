/**
 * The headless command line: its options, their checks, the usage text, the defaults and the exit
 * codes. Only what parsing needs is loaded up front (no zod, no SQLite, no HTTP): `--help` and a
 * usage error answer at once; the engine is imported once the arguments are good.
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { AiTarget } from '../../schemas'
import { TARGET_LABELS } from '../../schemas/labels'
import { askedDataDir, defaultDataDir } from '../core/paths'

const AI_TARGETS = Object.keys(TARGET_LABELS) as AiTarget[]

const USAGE = `usage: npm run headless -- --watch <dir> [--watch <dir>…] | --mail <imap[s]://user@host[:port]/Mailbox> …
       [--target <${AI_TARGETS.join('|')}>]
       [--profile <name> | --base-url <url> with BOOKDROP_API_KEY | --demo]
       [--data-dir <dir>] [--prompt <text>] [--after-upload leave|move] [--recursive] [--once]
       [--max-wait <seconds>] [--timeout <seconds>] [--ca-file <pem>]
       [--concurrency <n>] [--job-timeout <seconds>] [--reset-queue]
       [--mail-after leave|seen|move:<mailbox>] [--mail-from <text>] [--mail-subject <text>]
       [--mail-since YYYY-MM-DD] [--mail-body]   (mail password: BOOKDROP_MAIL_PASSWORD or the keychain)
       [--duplicates hold|send]   (a possible duplicate: held for you, or sent with a note; default: the profile's setting)
   or: npm run headless -- --held | --send-held <id> … | --discard-held <id> …   [--profile …] [--data-dir <dir>]
       (list the possible duplicates held for you; send one anyway; or discard one)
   or: npm run headless -- --check [--profile <name> | --base-url <url> with BOOKDROP_API_KEY | --demo]
       [--ca-file <pem>] [--timeout <seconds>]`

/** Exit codes (also in README; 3 and 4 come from startupRefusal). */
export const EXIT = { ok: 0, failed: 1, usage: 2, unfinished: 5, mail: 6, forced: 7 } as const

/** --once gives up after this long in all, by default (README). */
export const DEFAULT_MAX_WAIT_S = 30 * 60
/** One request's deadline, by default: the client's. */
export const DEFAULT_TIMEOUT_S = 60

export class UsageError extends Error {}
/** `--help`: the usage on stdout, exit 0. */
export class HelpRequested extends Error {}

export interface MailArg {
  url: string
  security: 'tls' | 'starttls' | 'plain'
  user: string
  host: string
  port: number
  mailbox: string
}

export interface Args {
  /** Every --watch, resolved, each once; empty with --check, or with --mail alone. */
  watch: string[]
  mail: MailArg[]
  mailAfter: { after: 'leave' | 'seen' | 'move'; moveTo: string }
  mailFrom?: string
  mailSubject?: string
  mailSince?: string
  mailBody: boolean
  target: AiTarget
  baseUrl?: string
  profile?: string
  dataDir: string
  /** --demo without a data directory asked for: the run uses a temporary one (run.ts), removed at the end. */
  temporaryData: boolean
  prompt?: string
  afterUpload: 'leave' | 'move'
  recursive: boolean
  once: boolean
  demo: boolean
  concurrency?: number
  jobTimeoutMs?: number
  resetQueue: boolean
  maxWaitMs: number
  timeoutMs: number
  caFile?: string
  check: boolean
  /** Issue 33: what this run does with a possible duplicate; undefined: the profile's setting. */
  duplicates?: 'hold' | 'send'
  /** --held: list the held rows and stop. */
  listHeld: boolean
  /** --send-held / --discard-held: upload ids, each once. */
  sendHeld: number[]
  discardHeld: number[]
}

/** A number of seconds from an option, or a usage error naming its range. */
function seconds(name: string, raw: string | undefined, min: number, max: number, fallback: number): number {
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a number of seconds from ${min} to ${max}`)
  return n
}

/** `--mail` URLs and `--mail-after`: the parsing lives with the mail rules (core/mail/config.ts, small). */
async function parseMail(values: {
  mail?: string[]
  'mail-after'?: string
  'mail-since'?: string
  'mail-from'?: string
  'mail-subject'?: string
}): Promise<Pick<Args, 'mail' | 'mailAfter' | 'mailSince'>> {
  const { parseMailAfter, parseMailUrl } = await import('../core/mail/config')
  const mail: MailArg[] = []
  for (const url of values.mail ?? []) {
    try {
      mail.push({ url, ...parseMailUrl(url) })
    } catch (e) {
      throw new UsageError((e as Error).message)
    }
  }
  let mailAfter: Args['mailAfter']
  try {
    mailAfter = parseMailAfter(values['mail-after'] ?? 'seen')
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
  const since = values['mail-since']
  if (
    since !== undefined &&
    (!/^\d{4}-\d{2}-\d{2}$/.test(since) || Number.isNaN(Date.parse(`${since}T00:00:00Z`)))
  ) {
    throw new UsageError('--mail-since must be a date written YYYY-MM-DD, e.g. 2026-01-31')
  }
  for (const k of ['mail-from', 'mail-subject'] as const) {
    const v = values[k]
    if (v !== undefined && (v.trim() === '' || v.length > 200))
      throw new UsageError(`--${k} must be 1 to 200 characters`)
  }
  if (
    mail.length === 0 &&
    (values['mail-after'] ?? values['mail-since'] ?? values['mail-from'] ?? values['mail-subject']) !==
      undefined
  ) {
    throw new UsageError(
      '--mail-after, --mail-from, --mail-subject and --mail-since go with --mail <imap[s]://user@host/Mailbox>',
    )
  }
  return { mail, mailAfter, ...(since ? { mailSince: since } : {}) }
}

/** The arguments, checked; throws UsageError (exit 2) or HelpRequested (the usage, exit 0). */
export async function parse(argv: string[]): Promise<Args> {
  const { values } = parseArgs({
    args: argv,
    options: {
      watch: { type: 'string', multiple: true },
      mail: { type: 'string', multiple: true },
      'mail-after': { type: 'string' },
      'mail-from': { type: 'string' },
      'mail-subject': { type: 'string' },
      'mail-since': { type: 'string' },
      'mail-body': { type: 'boolean', default: false },
      target: { type: 'string', default: 'expenses' },
      'base-url': { type: 'string' },
      profile: { type: 'string' },
      'data-dir': { type: 'string' },
      prompt: { type: 'string' },
      'after-upload': { type: 'string', default: 'leave' },
      recursive: { type: 'boolean', default: false },
      once: { type: 'boolean', default: false },
      demo: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      'job-timeout': { type: 'string' },
      'reset-queue': { type: 'boolean', default: false },
      'max-wait': { type: 'string' },
      timeout: { type: 'string' },
      'ca-file': { type: 'string' },
      check: { type: 'boolean', default: false },
      duplicates: { type: 'string' },
      held: { type: 'boolean', default: false },
      'send-held': { type: 'string', multiple: true },
      'discard-held': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) throw new HelpRequested(USAGE)
  const check = values.check ?? false
  const held = heldArgs(values)
  const acting = held.listHeld || held.sendHeld.length > 0 || held.discardHeld.length > 0
  if (!values.watch?.length && !values.mail?.length && !check && !acting)
    throw new UsageError(`--watch <dir> or --mail <url> is required\n${USAGE}`)
  // The mail rules' module loads only for a command line that speaks of mail (an idle watcher stays small).
  const mailFlags = ['mail', 'mail-after', 'mail-from', 'mail-subject', 'mail-since'] as const
  const mail = mailFlags.some((k) => values[k] !== undefined)
    ? await parseMail(values)
    : { mail: [], mailAfter: { after: 'seen' as const, moveTo: 'Bookdrop/Done' } }
  const target = values.target as AiTarget
  if (!AI_TARGETS.includes(target)) throw new UsageError(`--target must be one of ${AI_TARGETS.join(', ')}`)
  const after = values['after-upload']
  if (after !== 'leave' && after !== 'move') throw new UsageError('--after-upload must be leave or move')
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency)
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 16)) {
    throw new UsageError('--concurrency must be a whole number from 1 to 16')
  }
  const jobTimeout = values['job-timeout'] === undefined ? undefined : Number(values['job-timeout'])
  if (
    jobTimeout !== undefined &&
    (!Number.isFinite(jobTimeout) || jobTimeout < 1 || jobTimeout > 30 * 86_400)
  ) {
    throw new UsageError('--job-timeout must be a number of seconds from 1 to 2592000 (30 days)')
  }
  const maxWait = seconds('max-wait', values['max-wait'], 1, 30 * 86_400, DEFAULT_MAX_WAIT_S)
  const timeout = seconds('timeout', values.timeout, 1, 3600, DEFAULT_TIMEOUT_S)
  return {
    watch: [...new Set((values.watch ?? []).map((w) => resolve(w)))],
    ...mail,
    ...(values['mail-from'] ? { mailFrom: values['mail-from'] } : {}),
    ...(values['mail-subject'] ? { mailSubject: values['mail-subject'] } : {}),
    mailBody: values['mail-body'] ?? false,
    target,
    baseUrl: values['base-url'],
    profile: values.profile,
    dataDir: resolve(askedDataDir(values['data-dir']) ?? defaultDataDir()),
    temporaryData: (values.demo ?? false) && askedDataDir(values['data-dir']) === undefined,
    prompt: values.prompt,
    afterUpload: after,
    recursive: values.recursive ?? false,
    once: values.once ?? false,
    demo: values.demo ?? false,
    concurrency,
    ...(jobTimeout !== undefined ? { jobTimeoutMs: Math.round(jobTimeout * 1000) } : {}),
    resetQueue: values['reset-queue'] ?? false,
    maxWaitMs: Math.round(maxWait * 1000),
    timeoutMs: Math.round(timeout * 1000),
    ...(values['ca-file'] ? { caFile: resolve(values['ca-file']) } : {}),
    check,
    ...held,
  }
}

/** Issue 33's options: --duplicates hold|send, --held, --send-held <id>, --discard-held <id>. */
function heldArgs(values: {
  duplicates?: string
  held?: boolean
  'send-held'?: string[]
  'discard-held'?: string[]
}): Pick<Args, 'duplicates' | 'listHeld' | 'sendHeld' | 'discardHeld'> {
  const d = values.duplicates
  if (d !== undefined && d !== 'hold' && d !== 'send')
    throw new UsageError('--duplicates must be hold (a possible duplicate waits for you) or send (it is sent, with a note)')
  const ids = (name: string, raw: string[] | undefined): number[] =>
    [
      ...new Set(
        (raw ?? []).map((r) => {
          const n = Number(r.replace(/^#/, ''))
          if (!Number.isInteger(n) || n < 1)
            throw new UsageError(`--${name} takes the number of an upload, as --held lists it (e.g. --${name} 12), not "${r}"`)
          return n
        }),
      ),
    ]
  const sendHeld = ids('send-held', values['send-held'])
  const discardHeld = ids('discard-held', values['discard-held'])
  const both = sendHeld.find((id) => discardHeld.includes(id))
  if (both !== undefined) throw new UsageError(`upload #${both} cannot be both sent (--send-held) and discarded (--discard-held)`)
  return { ...(d ? { duplicates: d } : {}), listHeld: values.held ?? false, sendHeld, discardHeld }
}
