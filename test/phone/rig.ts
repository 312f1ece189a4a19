/**
 * The phone listener's test rig: the web host (in this process, the real AppService and engine)
 * with "Add from phone" on 127.0.0.1, our emulator with a business, and raw HTTP to the phone's port
 * (node:http, so a test can send any Host, Origin or cookie a browser would not).
 */
import { request } from 'node:http'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import { MemorySecretStore, ProfileManager } from '../../src-main/core/secrets'
import { type WebHost, startWebHost } from '../../src-main/web-host'
import type { PhoneState } from '../../contract'

export const KEY = 'svc_sk_phone_test_business_0001'
export const PHONE_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36'

export interface PhoneRig {
  host: WebHost
  sb: Sandbox
  dir: string
  dataDir: string
  /** The test clock of the pairing: move it with `clock.now += ms`. */
  clock: { now: number }
  open(): Promise<PhoneState & { link: NonNullable<PhoneState['link']> }>
  phone: Phone
}

export interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  json: unknown
}

/** A phone talking to the listener: keeps its cookie like a browser; every header can be overridden. */
export class Phone {
  cookie = ''
  constructor(
    public base: string,
    public userAgent = PHONE_UA,
  ) {}

  get authority(): string {
    return new URL(this.base).host
  }

  send(
    method: string,
    path: string,
    o: { body?: Buffer | string; headers?: Record<string, string | undefined>; keepCookie?: boolean } = {},
  ): Promise<Reply> {
    const url = new URL(this.base)
    const headers: Record<string, string> = {
      Host: this.authority,
      'User-Agent': this.userAgent,
      ...(method === 'POST' ? { Origin: this.base } : {}),
      ...(this.cookie ? { Cookie: this.cookie } : {}),
    }
    for (const [k, v] of Object.entries(o.headers ?? {})) {
      const key = Object.keys(headers).find((h) => h.toLowerCase() === k.toLowerCase()) ?? k
      if (v === undefined) delete headers[key]
      else headers[key] = v
    }
    if (o.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length'))
      headers['Content-Length'] = String(Buffer.byteLength(o.body))
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          const set = res.headers['set-cookie']
          if (set && o.keepCookie !== false) this.cookie = set[0]!.split(';')[0]!
          let json: unknown = null
          try {
            json = JSON.parse(text)
          } catch {
            // not JSON (the page)
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
        })
      })
      req.on('error', reject)
      if (o.body !== undefined) req.write(o.body)
      req.end()
    })
  }

  /** Opens the link: POST /pair with the token of its fragment. */
  pair(linkUrl: string): Promise<Reply> {
    const token = new URL(linkUrl).hash.replace(/^#t=/, '')
    return this.send('POST', '/pair', { body: JSON.stringify({ token }), headers: { 'Content-Type': 'application/json' } })
  }

  upload(
    bytes: Buffer,
    q: Record<string, string>,
    headers: Record<string, string | undefined> = {},
  ): Promise<Reply> {
    const query = new URLSearchParams({ target: 'expenses', name: 'photo.jpg', ...q })
    return this.send('POST', `/upload?${query}`, { body: bytes, headers: { 'Content-Type': 'image/jpeg', ...headers } })
  }
}

export function usePhoneRig(): (o?: { phoneListen?: string }) => Promise<PhoneRig> {
  const open: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const stop of open.splice(0)) await stop()
  })
  return async (o = {}) => {
    const dir = await mkdtemp(join(tmpdir(), 'bookdrop-phone-'))
    const dataDir = join(dir, 'data')
    const sb = await startSandbox({
      fixtures: {
        businesses: [{ uuid: 'b-phone', name: 'Phone Foods Ltd', key: KEY, currency: 'NGN', country: 'NG' }],
        rate_limit: { limit: 100_000, window_seconds: 60 },
        job_delay_ms: 40,
      },
      port: 0,
    })
    const store = new MemorySecretStore()
    const manager = await ProfileManager.open({ dataDir, store })
    const profile = await manager.add({ name: 'Phone Foods', kind: 'business', environment: 'custom', baseUrl: sb.url, secret: KEY })
    await manager.setActive(profile.id)
    const clock = { now: Date.now() }
    const host = await startWebHost({
      port: 0,
      dataDir,
      secretStore: store,
      autoDemo: false,
      phoneListen: o.phoneListen ?? '127.0.0.1',
      phoneClock: () => clock.now,
      engine: {
        queue: { retry: { baseMs: 50, capMs: 500 }, poll: { firstMs: 40, maxMs: 250, factor: 1.5 } },
        watch: { stabilityMs: 150, rescanIntervalMs: 60_000 },
      },
    })
    open.push(async () => {
      await host.stop()
      await sb.stop()
      await rm(dir, { recursive: true, force: true })
    })
    const rig: PhoneRig = {
      host,
      sb,
      dir,
      dataDir,
      clock,
      phone: new Phone('http://127.0.0.1:1'),
      async open() {
        const s = await host.service.openPhone({})
        if (!s.link || !s.address) throw new Error(`the phone panel did not open: ${s.problem}`)
        rig.phone.base = s.address
        return s as PhoneState & { link: NonNullable<PhoneState['link']> }
      },
    }
    return rig
  }
}

/** Pairs `phone` through the link and allows it on the desktop. */
export async function pairAndAllow(rig: PhoneRig, phone: Phone = rig.phone): Promise<void> {
  const s = await rig.host.service.getPhone({})
  const link = s.link ?? (await rig.host.service.newPhoneLink({})).link!
  const r = await phone.pair(link.url)
  if (r.status !== 200) throw new Error(`pairing answered ${r.status}: ${r.text}`)
  const pending = (await rig.host.service.getPhone({})).pending.at(-1)!
  await rig.host.service.decidePhone({ id: pending.id, allow: true })
}

/** Opens the phone panel of `rig` and pairs and allows its phone: where most phone tests start. */
export async function openPaired(rig: PhoneRig): Promise<PhoneRig> {
  await rig.open()
  await pairAndAllow(rig)
  return rig
}
