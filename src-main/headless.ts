/**
 * Bookdrop without a window:
 *
 *   npm run headless -- --watch <dir> --target expenses [--base-url <url>] [--profile <name>]
 *                       [--data-dir <dir>] [--prompt <text>] [--after-upload leave|move] [--once] [--demo]
 *                       [--max-wait <s>] [--timeout <s>] [--ca-file <pem>]
 *   npm run headless -- --check [--base-url <url> | --profile <name> | --demo] [--ca-file <pem>]
 *   npm run headless -- --mail imaps://me%40example.com@imap.example.com/INBOX [--watch <dir>] …
 *                       [--mail-after leave|seen|move:<mailbox>] [--mail-from <text>] [--mail-subject <text>]
 *                       [--mail-since YYYY-MM-DD] [--mail-body]
 *
 * Mail (issue 24): each --mail is a mailbox read by a rule; its password comes from
 * BOOKDROP_MAIL_PASSWORD or the OS keychain (`mail:<user>@<host>:<port>`), never the command line.
 *
 * The key comes from --profile (the OS keychain) or BOOKDROP_API_KEY; --demo starts the embedded
 * emulator and uses its demo key. One line per file as it moves, and a summary. SIGINT/SIGTERM stop
 * every mode cleanly: requests in flight are aborted (their Idempotency-Key keeps them safe), the
 * summary is printed, and a restart resumes. --once handles what is in the folder, waits for every
 * job (at most --job-timeout seconds each) but never longer than --max-wait in all, prints the
 * summary and what is left, and exits 0 only if every file is done. Requests go through
 * HTTPS_PROXY / HTTP_PROXY (NO_PROXY honoured; loopback never proxied) and trust Node's and the
 * system's certificate authorities, plus --ca-file.
 *
 * Exit codes: 0 done, 1 a file failed, 2 usage, 3 the queue database cannot be read (start again
 * with --reset-queue to move it aside), 4 another Bookdrop process has this data directory, 5 files
 * are left unfinished (--max-wait passed, a stop, or a problem only a person can fix), or --check
 * found no working API, 6 a mail account could not be read (--once; the line names the account and
 * what to do).
 */
import { mkdir } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { readFile } from 'node:fs/promises'
import type { AiTarget } from '../schemas'
import { TARGET_LABELS } from '../schemas/labels'
import type { Engine } from './core/engine'
import type { Network } from './core/api/network'
import type { ConnectionReport } from './core/api/transport'
import type { ClientProvider } from './core/queue/queue'
import { printable } from './core/names'
import { defaultDataDir } from './core/paths'
import { privacyNotice } from './core/store/private-dir'
import type { UploadView } from '../contract/types'
import type { MailPasswords } from './core/mail/service'

/**
 * Lines for stdout, written together once per turn of the event loop: a drop of 300 files makes
 * about 1,200 lines, and one write each (console.log, synchronous on a pipe) was a fifth of the
 * CPU the whole run used. Flushed before the process ends.
 */
function lineWriter(): { line(text: string): void; flush(): void } {
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

// Only what parsing the arguments needs is loaded up front (no zod, no SQLite, no HTTP): `--help`
// and a usage error answer at once; the engine is imported once the arguments are good.
const AI_TARGETS = Object.keys(TARGET_LABELS) as AiTarget[]

const USAGE = `usage: npm run headless -- --watch <dir> | --mail <imap[s]://user@host[:port]/Mailbox> …
       [--target <${AI_TARGETS.join('|')}>]
       [--profile <name> | --base-url <url> with BOOKDROP_API_KEY | --demo]
       [--data-dir <dir>] [--prompt <text>] [--after-upload leave|move] [--recursive] [--once]
       [--max-wait <seconds>] [--timeout <seconds>] [--ca-file <pem>]
       [--concurrency <n>] [--job-timeout <seconds>] [--reset-queue]
       [--mail-after leave|seen|move:<mailbox>] [--mail-from <text>] [--mail-subject <text>]
       [--mail-since YYYY-MM-DD] [--mail-body]   (mail password: BOOKDROP_MAIL_PASSWORD or the keychain)
   or: npm run headless -- --check [--profile <name> | --base-url <url> with BOOKDROP_API_KEY | --demo]
       [--ca-file <pem>] [--timeout <seconds>]`

/** Exit codes (also in README; 3 and 4 come from startupRefusal). */
export const EXIT = { ok: 0, failed: 1, usage: 2, unfinished: 5, mail: 6 } as const

/** --once gives up after this long in all, by default (README). */
export const DEFAULT_MAX_WAIT_S = 30 * 60
/** One request's deadline, by default: the client's. */
export const DEFAULT_TIMEOUT_S = 60

class UsageError extends Error {}
/** `--help`: the usage on stdout, exit 0. */
class HelpRequested extends Error {}

interface MailArg {
  url: string
  security: 'tls' | 'starttls' | 'plain'
  user: string
  host: string
  port: number
  mailbox: string
}

interface Args {
  /** Null with --check, or with --mail alone. */
  watch: string | null
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
  const { parseMailAfter, parseMailUrl } = await import('./core/mail/config')
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

async function parse(argv: string[]): Promise<Args> {
  const { values } = parseArgs({
    args: argv,
    options: {
      watch: { type: 'string' },
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
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) throw new HelpRequested(USAGE)
  const check = values.check ?? false
  if (!values.watch && !values.mail?.length && !check)
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
    watch: values.watch ? resolve(values.watch) : null,
    ...mail,
    ...(values['mail-from'] ? { mailFrom: values['mail-from'] } : {}),
    ...(values['mail-subject'] ? { mailSubject: values['mail-subject'] } : {}),
    mailBody: values['mail-body'] ?? false,
    target,
    baseUrl: values['base-url'],
    profile: values.profile,
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
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
  }
}

/**
 * Where requests go and whom they trust: the environment's proxy (HTTPS_PROXY, HTTP_PROXY,
 * NO_PROXY), Node's and the system's certificate authorities, and --ca-file. Made with the first
 * request (an engine that only watches loads no TLS or proxy code).
 */
function networkOf(caPem: string | null): () => Promise<Network> {
  let made: Promise<Network> | undefined
  return () =>
    (made ??= import('./core/api/network').then(({ Network }) => new Network({ extraCaPem: caPem })))
}

/** What every client of this run is given. */
interface ClientBasics {
  network: () => Promise<Network>
  timeoutMs: number
}

interface Connection {
  profileId: string
  label: string
  clients: ClientProvider
  close(): Promise<void>
}

/** A provider failure the queue understands: the profile waits for a key instead of failing files one by one. */
function noKey(message: string): Error & { status: number; errorCode: string; retryable: boolean } {
  return Object.assign(new Error(message), { status: 0, errorCode: 'no_key', retryable: false })
}

/**
 * Clients for one key given on the command line or by the demo (no keychain involved). The client
 * and the API schemas load with the first request, not at start: an engine that only watches costs
 * less (issue 14).
 */
function fixedKeyClients(
  target: { environment: 'custom'; baseUrl: string } | { environment: 'production' },
  key: string,
  basics: ClientBasics,
): ClientProvider {
  return {
    clientFor: async (_id, onRateLimit) => {
      const { BookkeepingClient } = await import('./core/api')
      return new BookkeepingClient({
        ...target,
        auth: { key },
        network: await basics.network(),
        timeoutMs: basics.timeoutMs,
        timeoutHint: '--timeout',
        onResponse: (i) => i.rateLimit && onRateLimit(i.rateLimit),
      })
    },
  }
}

async function connect(args: Args, basics: ClientBasics): Promise<Connection> {
  if (args.demo) {
    const { startSandbox } = await import('../sandbox')
    const sb = await startSandbox({ port: 0 })
    const key = sb.demo!.businessKey
    return {
      profileId: 'demo',
      label: `demo emulator at ${sb.url}`,
      clients: fixedKeyClients({ environment: 'custom', baseUrl: sb.url }, key, basics),
      close: () => sb.stop(),
    }
  }
  if (args.profile) {
    const { ProfileManager, openSecretStore } = await import('./core/secrets')
    const { store, problem } = await openSecretStore()
    const manager = await ProfileManager.open({ dataDir: args.dataDir, store })
    const profile = manager.findByName(args.profile)
    if (!profile) {
      const names = manager.list().map((p) => p.name)
      throw new UsageError(
        `no profile named "${args.profile}"${names.length ? `; profiles: ${names.join(', ')}` : ''}`,
      )
    }
    if (profile.kind === 'partner')
      throw new UsageError(`"${profile.name}" is a partner profile: uploads need a business profile`)
    if (problem) console.error(`note: ${problem}`)
    return {
      profileId: profile.id,
      label: `profile "${profile.name}"`,
      clients: {
        clientFor: async (id, onRateLimit) => {
          try {
            return await manager.clientFor(id, {
              network: await basics.network(),
              timeoutMs: basics.timeoutMs,
              timeoutHint: '--timeout',
              onResponse: (i) => i.rateLimit && onRateLimit(i.rateLimit),
            })
          } catch (e) {
            throw noKey((e as Error).message)
          }
        },
      },
      close: async () => {},
    }
  }
  const key = process.env.BOOKDROP_API_KEY?.trim()
  if (!key) {
    throw new UsageError(
      'no key: pass --profile <name>, set BOOKDROP_API_KEY (with --base-url for a custom server), or try --demo',
    )
  }
  const target = args.baseUrl
    ? { environment: 'custom' as const, baseUrl: args.baseUrl }
    : { environment: 'production' as const }
  // Checked now so a bad base URL or a public key fails before anything is watched.
  const { clientSettings } = await import('./core/api/credentials')
  clientSettings({ ...target, auth: { key } })
  return {
    profileId: 'env',
    label: `BOOKDROP_API_KEY at ${args.baseUrl ?? 'production'}`,
    clients: fixedKeyClients(target, key, basics),
    close: async () => {},
  }
}

/** `--check`: the base URL, the proxy, the certificate's issuer, the round trip, and whether the API answered. */
async function checkConnection(conn: Connection): Promise<number> {
  let client
  try {
    client = (await conn.clients.clientFor(conn.profileId, () => {})) as unknown as {
      checkConnection(): Promise<ConnectionReport>
    }
  } catch (e) {
    console.error(`bookdrop: --check: ${(e as Error).message}`)
    return EXIT.unfinished
  }
  const r = await client.checkConnection()
  const lines = [
    `bookdrop: connection check (${conn.label})`,
    `  base URL:    ${r.baseUrl}`,
    `  proxy:       ${r.proxy ?? 'none (direct)'}`,
    `  certificate: ${r.baseUrl.startsWith('https:') ? (r.issuer ? `signed by ${r.issuer}` : 'not read') : 'none (plain http on this computer)'}`,
    `  trusted:     ${r.trust}`,
    `  round trip:  ${r.roundTripMs === null ? 'no answer' : `${r.roundTripMs} ms`}`,
    `  answer:      ${r.api ? `the API's${r.keyAccepted === false ? ' (the key was refused)' : r.keyAccepted ? ' (key accepted)' : ''}` : r.status === null ? 'none' : `not the API's (HTTP ${r.status})`}`,
    `  ${r.message}`,
  ]
  console.log(lines.join('\n'))
  return r.api && r.keyAccepted !== false ? EXIT.ok : EXIT.unfinished
}

export async function main(argv: string[]): Promise<number> {
  let args: Args
  try {
    args = await parse(argv)
  } catch (e) {
    if (e instanceof HelpRequested) {
      console.log(e.message)
      return EXIT.ok
    }
    console.error((e as Error).message)
    return EXIT.usage
  }
  // A stop asked for at any point of the run (handlers first: a SIGTERM during --once must print
  // the summary, not kill the process).
  let signalled: string | null = null
  let onSignal: ((signal: string) => void) | null = null
  const stopped = new Promise<string>((resolveStop) => {
    onSignal = (signal) => {
      if (signalled) return
      signalled = signal
      resolveStop(signal)
    }
  })
  const handlers = { SIGINT: () => onSignal?.('SIGINT'), SIGTERM: () => onSignal?.('SIGTERM') }
  process.on('SIGINT', handlers.SIGINT)
  process.on('SIGTERM', handlers.SIGTERM)
  try {
    return await run(args, stopped, () => signalled)
  } finally {
    process.off('SIGINT', handlers.SIGINT)
    process.off('SIGTERM', handlers.SIGTERM)
  }
}

async function run(args: Args, stopped: Promise<string>, signalled: () => string | null): Promise<number> {
  let caPem: string | null = null
  if (args.caFile) {
    try {
      caPem = await readFile(args.caFile, 'utf8')
      const { readCaPem } = await import('./core/api/network')
      readCaPem(caPem, `--ca-file ${args.caFile}`)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      console.error(code ? `--ca-file ${args.caFile} cannot be read (${code})` : (e as Error).message)
      return EXIT.usage
    }
  }
  const basics: ClientBasics = { network: networkOf(caPem), timeoutMs: args.timeoutMs }
  await mkdir(args.dataDir, { recursive: true, mode: 0o700 })
  let conn: Connection
  try {
    conn = await connect(args, basics)
  } catch (e) {
    console.error((e as Error).message)
    return 2
  }
  if (args.check) {
    try {
      return await checkConnection(conn)
    } finally {
      await conn.close()
    }
  }
  const [{ Engine }, { startupRefusal }, { describeUpload, summaryLine }] = await Promise.all([
    import('./core/engine'),
    import('./core/store/data-dir'),
    import('./core/report'),
  ])
  let engine: Engine
  try {
    engine = await Engine.open({
      dataDir: args.dataDir,
      clients: conn.clients,
      // Only the mailboxes of this command line are read (started below).
      mail: { autoStart: false, ...(args.mail.length ? { passwords: await mailPasswordSource() } : {}) },
      queue: {
        ...(args.concurrency ? { concurrency: args.concurrency } : {}),
        ...(args.jobTimeoutMs ? { jobTimeoutMs: args.jobTimeoutMs } : {}),
      },
      resetQueue: args.resetQueue,
    })
  } catch (e) {
    await conn.close()
    // The two ways a data directory cannot be used: one message naming the file or the other
    // process, and the way out; no stack trace, and an exit code of their own.
    const refused = startupRefusal(e, args.dataDir)
    if (refused) {
      console.error(refused.message)
      return refused.code
    }
    // Anything else: one line, no stack trace.
    console.error(`bookdrop: could not start: ${(e as Error).message}`)
    return EXIT.failed
  }
  const privacy = privacyNotice(args.dataDir, engine.openReport.madePrivate)
  if (privacy) console.log(privacy)
  if (engine.openReport.movedAside) {
    console.log(
      `bookdrop: the unreadable queue database was moved aside to ${engine.openReport.movedAside}; starting with an empty queue`,
    )
  } else if (args.resetQueue) {
    console.log('bookdrop: --reset-queue: the queue database is readable, so nothing was moved')
  }
  const what = [args.watch, ...args.mail.map((m) => `${m.user}@${m.host}/${m.mailbox}`)]
    .filter(Boolean)
    .join(' and ')
  console.log(
    printable(`bookdrop: ${args.watch ? 'watching' : 'reading'} ${what} for ${args.target} as ${conn.label}; data in ${args.dataDir}`),
  )
  const out = lineWriter()

  /** Every row this run saw, as its last event left it (the summary reads no database). */
  const seen = new Map<number, UploadView>()
  engine.events.on('upload', ({ upload }) => {
    seen.set(upload.id, upload)
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
    if (args.once && (m.state === 'error' || m.state === 'waiting')) return
    if (m.state === 'connected' || m.state === 'waiting' || m.state === 'error')
      out.line(m.message ? `mail ${m.state}: ${m.message}` : `mail ${label}: ${m.state}${m.idle ? ' (IDLE)' : ''}`)
  })

  if (args.watch) {
    const existing = engine.folders
      .list()
      .find((f) => f.path === args.watch && f.profileId === conn.profileId && f.target === args.target)
    const folderInput = {
      profileId: conn.profileId,
      path: args.watch,
      target: args.target,
      promptTemplate: args.prompt,
      recursive: args.recursive,
      afterUpload: args.afterUpload,
      takeExisting: true,
    }
    try {
      if (existing) await engine.updateFolder(existing.id, folderInput)
      else await engine.addFolder(folderInput)
    } catch (e) {
      console.error(printable(`cannot watch ${args.watch}: ${(e as Error).message}`))
      await engine.close()
      await conn.close()
      return 2
    }
  }

  let ruleIds: string[]
  try {
    ruleIds = await mailRules(engine, args, conn.profileId, mailLabels)
  } catch (e) {
    console.error(`cannot read mail: ${(e as Error).message}`)
    await engine.close()
    await conn.close()
    return 2
  }
  const mailProblems: string[] = []

  /**
   * Stops sending (requests in flight are aborted: their rows wait, same key, for the next start),
   * prints the summary and, for --once, what is left; closes everything.
   */
  const finish = async (why: 'idle' | 'max-wait' | 'signal'): Promise<number> => {
    await engine.stopSending()
    const left = [
      ...engine.uploads.iterate({
        statuses: ['queued', 'uploading', 'waiting_retry', 'processing'],
        profileId: conn.profileId,
      }),
    ]
    const held = engine.profileState(conn.profileId)
    const rows: UploadView[] = [...seen.values()]
    const failed = rows.filter((u) => u.status === 'failed')
    out.flush()
    console.log(summaryLine(rows))
    for (const u of failed) {
      const which = u.mailSubject !== null ? `mail "${u.mailSubject}" (${u.name})` : u.path
      console.log(printable(`failed: ${which}: ${u.lastError ?? u.errorCode ?? 'no reason given'}`))
    }
    for (const p of new Set(mailProblems)) console.error(printable(p))
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
    await engine.close()
    await conn.close()
    if (failed.length > 0) return EXIT.failed
    if (mailProblems.length > 0) return EXIT.mail
    return args.once && left.length > 0 ? EXIT.unfinished : EXIT.ok
  }
  const announce = (signal: string): void => {
    out.flush()
    console.log(`bookdrop: ${signal}, stopping (unfinished uploads resume next time)`)
  }

  if (args.once) {
    // The initial scan (and the mailboxes) queued what was there; wait for hashing, uploads and jobs
    // to settle, then mails whose receipts all have records get their after-action; never longer
    // than --max-wait, and stop at once on a signal.
    let timer: NodeJS.Timeout | undefined
    const settle = async (): Promise<'idle'> => {
      const mail = ruleIds.length > 0 ? await engine.mail() : null
      const [, readProblems] = await Promise.all([engine.rescan(), mail?.readOnce(ruleIds) ?? []])
      mailProblems.push(...readProblems.map((e) => e.message))
      await engine.whenIdle()
      if (mail) mailProblems.push(...(await mail.actOnce(ruleIds)).map((e) => e.message))
      return 'idle'
    }
    const outcome = await Promise.race([
      settle(),
      new Promise<'max-wait'>((r) => {
        timer = setTimeout(() => r('max-wait'), args.maxWaitMs)
      }),
      stopped.then(() => 'signal' as const),
    ])
    clearTimeout(timer)
    if (outcome === 'signal') announce(signalled() ?? 'signal')
    else if (outcome === 'max-wait') {
      out.flush()
      console.log(`bookdrop: --max-wait of ${args.maxWaitMs / 1000} s passed, stopping`)
    }
    return finish(outcome)
  }

  if (ruleIds.length > 0) (await engine.mail()).start(ruleIds)
  const signal = await stopped
  announce(signal)
  return finish('signal')
}

/** BOOKDROP_MAIL_PASSWORD, else the OS keychain (opened only when the variable is unset). */
async function mailPasswordSource(): Promise<MailPasswords> {
  const { mailPasswords, MAIL_PASSWORD_ENV } = await import('./core/mail/secrets')
  if (process.env[MAIL_PASSWORD_ENV]) return mailPasswords(null)
  const { openSecretStore } = await import('./core/secrets')
  const { store } = await openSecretStore()
  return mailPasswords(store)
}

/**
 * The mail accounts and rules of this command line, saved next to the queue (so a restart knows
 * what was read and sent): one account per user, host and port, one rule per mailbox and target.
 */
async function mailRules(
  engine: Engine,
  args: Args,
  profileId: string,
  labels: Map<string, string>,
): Promise<string[]> {
  const ids: string[] = []
  if (args.mail.length === 0) return ids
  const mail = await engine.mail()
  for (const m of args.mail) {
    const accountInput = { profileId, host: m.host, port: m.port, security: m.security, user: m.user }
    const known = mail.store
      .accounts()
      .find((a) => a.profileId === profileId && a.host === m.host && a.port === m.port && a.user === m.user)
    const account = await mail.saveAccount(
      { ...accountInput, label: known?.label ?? `${m.user}@${m.host}` },
      known?.id,
    )
    labels.set(account.id, account.label)
    const rule = mail.store
      .rules(account.id)
      .find((r) => r.mailbox.toUpperCase() === m.mailbox.toUpperCase() && r.target === args.target)
    const saved = await mail.saveRule(
      {
        accountId: account.id,
        mailbox: m.mailbox,
        target: args.target,
        ...(args.prompt ? { promptTemplate: args.prompt } : {}),
        fromContains: args.mailFrom ?? null,
        subjectContains: args.mailSubject ?? null,
        since: args.mailSince ?? rule?.since ?? null,
        after: args.mailAfter.after,
        moveTo: args.mailAfter.moveTo,
        sendBody: args.mailBody,
      },
      rule?.id,
    )
    ids.push(saved.id)
  }
  return ids
}

// Run when executed directly (tsx src-main/headless.ts, or the built file).
if (process.argv[1] && /headless\.(ts|js|mjs)$/.test(process.argv[1])) {
  void main(process.argv.slice(2)).then((code) => process.exit(code))
}
