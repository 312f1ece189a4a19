/**
 * Test rig for the app service: a real emulator over HTTP, a real data dir, real files; every call
 * goes through `dispatch` (the bridge), and every Result and event is kept in a transcript so tests
 * can prove no secret ever left main.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { type Fixtures, type Sandbox, startSandbox } from '../../sandbox'
import type { CallName, EventName, Events, Req, Res, Result } from '../../contract'
import { AppService, type AppServiceOptions, type ShellPort } from '../../src-main/core/app-service'
import { dispatch } from '../../src-main/core/bridge'
import { MemorySecretStore } from '../../src-main/core/secrets'
import { sandboxDemo } from '../../src-main/demo-launcher'
import { type WebHost, startWebHost } from '../../src-main/web-host'
import { ngBusiness, openInvoice, rigFixtures } from '../sandbox/fixture-builders'

export { waitFor } from '../engine/helpers'

export const BUSINESS_KEY = 'svc_sk_app_business_key_0001'
export const OTHER_BUSINESS_KEY = 'svc_sk_app_business_key_0002'
export const PARTNER_KEY = 'svc_partner_sk_app_partner_key_0001'

export function fixtures(over: Partial<Fixtures> = {}): Fixtures {
  return rigFixtures(
    { name: 'Ledger Partners', key: PARTNER_KEY, holding_credits: 10_000 },
    {
      businesses: [
        ngBusiness('b1', 'Bakery', BUSINESS_KEY, { referred_by: PARTNER_KEY, credit_balance: 1234 }),
        ngBusiness('b2', 'Not Referred', OTHER_BUSINESS_KEY, { credit_balance: 55 }),
      ],
      invoices: [
        openInvoice({
          uuid: 'inv-1',
          source_uuid: 'INV-1001',
          narration: 'Wedding cake',
          total_amount: 1000,
          amount_paid: 400,
        }),
      ],
    },
    { perMinute: 100_000, jobDelayMs: 40 },
    over,
  )
}

/** The fixtures' two profiles, as addProfile takes them (profileInput adds the emulator's URL). */
export const PROFILES = {
  business: { name: 'Bakery', kind: 'business', secret: BUSINESS_KEY },
  partner: { name: 'Ledger Partners', kind: 'partner', secret: PARTNER_KEY },
} as const

/** An addProfile request for one of PROFILES on the rig's emulator, with `over` changed. */
export function profileInput(
  r: AppRig,
  kind: keyof typeof PROFILES = 'business',
  over: Partial<Req<'addProfile'>> = {},
): Req<'addProfile'> {
  return { ...PROFILES[kind], environment: 'custom', baseUrl: r.sb!.url, ...over }
}

/** Adds one of PROFILES (see profileInput); returns its id. */
export async function addProfile(
  r: AppRig,
  kind: keyof typeof PROFILES = 'business',
  over: Partial<Req<'addProfile'>> = {},
): Promise<string> {
  return (await r.ok('addProfile', profileInput(r, kind, over))).id
}

export const FAST_ENGINE: AppServiceOptions['engine'] = {
  queue: { retry: { baseMs: 20, capMs: 200 }, poll: { firstMs: 30, maxMs: 200, factor: 1.5 } },
  watch: { stabilityMs: 120, rescanIntervalMs: 60_000 },
}

/** The web host in demo mode on a free port, its data in `<dir>/data`, keys in memory, the fast engine. */
export function startDemoWebHost(dir: string): Promise<WebHost> {
  return startWebHost({
    port: 0,
    dataDir: join(dir, 'data'),
    demo: true,
    secretStore: new MemorySecretStore(),
    engine: FAST_ENGINE,
  })
}

export interface Recorded {
  name: string
  payload: unknown
}

export interface AppRig {
  sb: Sandbox | null
  dir: string
  dataDir: string
  service: AppService
  events: Recorded[]
  /** Every Result and event, as JSON, in order. */
  transcript: string[]
  call<K extends CallName>(name: K, req: Req<K>): Promise<Result<Res<K>>>
  /** A call that must succeed; returns its value. */
  ok<K extends CallName>(name: K, req: Req<K>): Promise<Res<K>>
  eventsOf<E extends EventName>(name: E): Events[E][]
  close(): Promise<void>
}

export const testShell: ShellPort = {
  pickDirectory: async () => null,
  showItemInFolder: async () => false,
}

export interface AppRigOptions {
  /** The emulator's fixtures (default: `fixtures()`); null for no emulator. */
  fixtures?: Fixtures | null
  demo?: boolean
  shell?: ShellPort
}

export async function appRig(opts: AppRigOptions = {}): Promise<AppRig> {
  const sb =
    opts.fixtures === null ? null : await startSandbox({ fixtures: opts.fixtures ?? fixtures(), port: 0 })
  const dir = await mkdtemp(join(tmpdir(), 'bookdrop-app-'))
  const dataDir = join(dir, 'data')
  const service = await AppService.open({
    dataDir,
    host: 'web',
    shell: opts.shell ?? testShell,
    secretStore: new MemorySecretStore(),
    demo: opts.demo ?? false,
    demoLauncher: sandboxDemo,
    engine: FAST_ENGINE,
  })
  const events: Recorded[] = []
  const transcript: string[] = []
  service.onEvent((name, payload) => {
    events.push({ name, payload })
    transcript.push(JSON.stringify({ event: name, payload }))
  })
  const r: AppRig = {
    sb,
    dir,
    dataDir,
    service,
    events,
    transcript,
    async call(name, req) {
      const res = await dispatch(service, name, req)
      transcript.push(JSON.stringify({ call: name, res }))
      return res
    },
    async ok(name, req) {
      const res = await r.call(name, req)
      if (!res.ok) throw new Error(`${name} failed: ${res.error.code}: ${res.error.message}`)
      return res.value
    },
    eventsOf(name) {
      return events.filter((e) => e.name === name).map((e) => e.payload) as never[]
    },
    async close() {
      await service.close()
      await sb?.stop()
      await rm(dir, { recursive: true, force: true })
    },
  }
  return r
}

/**
 * One rig at a time for the tests of the calling file, closed after each test: `open` starts it
 * (closing is left to afterEach), `business` starts it with the business profile added.
 */
export function useAppRig() {
  let rig: AppRig | null = null
  afterEach(async () => {
    await rig?.close()
    rig = null
  })
  const open = async (opts?: AppRigOptions): Promise<AppRig> => (rig = await appRig(opts))
  return {
    open,
    async business(): Promise<{ r: AppRig; id: string }> {
      const r = await open()
      return { r, id: await addProfile(r) }
    },
  }
}

export function b64(text: string): string {
  return Buffer.from(text).toString('base64')
}

/** A receipt's text, unique per call (so the engine never calls it a duplicate). */
export function receiptText(name: string): string {
  return `Receipt ${name}\nVendor: Flour Mills\nTotal: NGN ${1000 + Math.floor(Math.random() * 9000)}.00\n${Math.random()}\n`
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

/** Anything shaped like a secret API key. */
export const SECRET_SHAPE = /svc_(?:partner_)?sk_[A-Za-z0-9_-]{4,}/
