/**
 * Test rig for the ingest engine: a real emulator over HTTP, a real SQLite file in a temp data dir,
 * real files in temp folders. Nothing is mocked.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { BookkeepingClient, type ResponseInfo } from '../../src-main/core/api'
import { Engine, type EngineOptions } from '../../src-main/core/engine'
import type { EngineEvents } from '../../src-main/core/events'
import type { ClientProvider } from '../../src-main/core/queue/queue'
import type { Upload } from '../../src-main/core/store/uploads'
import { type Fixtures, type Sandbox, type SandboxVariant, startSandbox } from '../../sandbox'
import type { CreateLogEntry } from '../../sandbox/state'
import { documentBytes } from './documents'

export const KEY = 'svc_sk_engine_test'
export const KEY_NO_API = 'svc_sk_engine_noapi'
export const PROFILE = 'p1'

export function fixtures(over: Partial<Fixtures> = {}): Fixtures {
  return {
    partners: [{ name: 'P', key: 'svc_partner_sk_engine', holding_credits: 1000 }],
    businesses: [
      { uuid: 'b1', name: 'Bakery', key: KEY, currency: 'NGN', country: 'NG' },
      { uuid: 'b3', name: 'No API', key: KEY_NO_API, developer_api: false },
    ],
    rate_limit: { limit: 100_000, window_seconds: 60 },
    job_delay_ms: 40,
    ...over,
  }
}

/** Every HTTP response the engine's clients saw. */
export type Seen = ResponseInfo[]

export function providerFor(
  sb: Sandbox,
  keys: Record<string, string> = { [PROFILE]: KEY },
  seen: Seen = [],
): ClientProvider {
  return {
    clientFor: async (profileId, onRateLimit) => {
      const key = keys[profileId]
      if (!key)
        throw Object.assign(new Error(`no key for ${profileId}`), {
          status: 0,
          errorCode: 'no_key',
          retryable: false,
        })
      return new BookkeepingClient({
        environment: 'custom',
        baseUrl: sb.url,
        auth: { key },
        onResponse: (i) => {
          seen.push(i)
          if (i.rateLimit) onRateLimit(i.rateLimit)
        },
      })
    },
  }
}

export interface Rig {
  sb: Sandbox
  dir: string
  dataDir: string
  inbox: string
  engine: Engine
  seen: Seen
  events: { [K in keyof EngineEvents]: EngineEvents[K][] }
  reopen(opts?: Partial<EngineOptions>): Promise<Engine>
  close(): Promise<void>
}

/** Opens rigs (as rig() does) and closes each one after the test of the calling file that opened it. */
export function useRigs(): typeof rig {
  const open: Rig[] = []
  afterEach(async () => {
    for (const r of open.splice(0)) await r.close()
  })
  return async (opts) => {
    const r = await rig(opts)
    open.push(r)
    return r
  }
}

export const FAST_QUEUE = {
  retry: { baseMs: 20, capMs: 200 },
  poll: { firstMs: 30, maxMs: 200, factor: 1.5 },
} as const

export async function rig(
  opts: {
    fixtures?: Fixtures
    keys?: Record<string, string>
    engine?: Partial<EngineOptions>
    sandbox?: Sandbox
    /** Where the database lives (a tiny disk, say); <dir>/data by default. */
    dataDir?: string
    /** The emulator's answer shapes (sandbox/variants.ts); default: our full ones. */
    variant?: SandboxVariant
    /** Another server's clients instead of the emulator's (a server of other shapes). */
    clients?: ClientProvider
  } = {},
): Promise<Rig> {
  const sb =
    opts.sandbox ??
    (await startSandbox({ fixtures: opts.fixtures ?? fixtures(), port: 0, variant: opts.variant }))
  const dir = await mkdtemp(join(tmpdir(), 'bookdrop-engine-'))
  const dataDir = opts.dataDir ?? join(dir, 'data')
  const inbox = join(dir, 'inbox')
  const seen: Seen = []
  const events = {
    upload: [],
    progress: [],
    folder: [],
    rateLimit: [],
    profile: [],
    notice: [],
    storage: [],
    mail: [],
    review: [],
  } as Rig['events']
  const open = async (extra: Partial<EngineOptions> = {}) => {
    const e = await Engine.open({
      dataDir,
      clients: opts.clients ?? providerFor(sb, opts.keys, seen),
      queue: { ...FAST_QUEUE, ...opts.engine?.queue, ...extra.queue },
      watch: { stabilityMs: 120, rescanIntervalMs: 60_000, ...opts.engine?.watch, ...extra.watch },
      ...(opts.engine?.mail || extra.mail ? { mail: { ...opts.engine?.mail, ...extra.mail } } : {}),
      ...(opts.engine?.openForSend ? { openForSend: opts.engine.openForSend } : {}),
      ...(extra.copySweepMs ? { copySweepMs: extra.copySweepMs } : {}),
    })
    for (const k of Object.keys(events) as (keyof EngineEvents)[]) {
      e.events.on(k, (p) => (events[k] as unknown[]).push(p))
    }
    return e
  }
  const r: Rig = {
    sb,
    dir,
    dataDir,
    inbox,
    seen,
    events,
    engine: await open(),
    async reopen(extra) {
      await r.engine.close()
      r.engine = await open(extra)
      return r.engine
    },
    async close() {
      await r.engine.close()
      if (!opts.sandbox) await sb.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
  await import('node:fs/promises').then((f) => f.mkdir(inbox, { recursive: true }))
  return r
}

/**
 * Writes a file with unique content; returns its path and sha256. Without `body`, the content is a
 * real document of the kind the name says (a .pdf holds a PDF: documents.ts) carrying a receipt's text.
 */
export async function receipt(
  dir: string,
  name: string,
  body?: string | Buffer,
): Promise<{ path: string; sha256: string }> {
  const content =
    body ??
    documentBytes(
      name,
      `Receipt ${name}\nVendor: Flour Mills\nTotal: NGN ${1000 + randomBytes(2).readUInt16BE(0)}.00\n${randomBytes(8).toString('hex')}\n`,
    )
  const path = join(dir, name)
  await writeFile(path, content)
  return { path, sha256: createHash('sha256').update(content).digest('hex') }
}

export async function creates(sb: Sandbox): Promise<CreateLogEntry[]> {
  const res = await fetch(`${sb.origin}/_sandbox/creates`)
  return ((await res.json()) as { data: CreateLogEntry[] }).data
}

/** How many records the server created from each attachment sha256. */
export async function createdBySha(sb: Sandbox): Promise<Map<string, number>> {
  const m = new Map<string, number>()
  for (const c of await creates(sb))
    for (const a of c.attachments) m.set(a.sha256, (m.get(a.sha256) ?? 0) + 1)
  return m
}

export async function waitFor<T>(
  what: string,
  fn: () => T | undefined | false | null | Promise<T | undefined | false | null>,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

export function byName(rows: Upload[]): Map<string, Upload> {
  return new Map(rows.map((r) => [r.name, r]))
}
