/**
 * Fixtures and HTTP helpers for the business route tests (test/sandbox/business*.test.ts and
 * jobs*.test.ts). Every call goes over real HTTP (./http.ts) to an emulator started in process on a
 * free port.
 */
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { type JobStatus, failureEnvelope, jobSchema, successEnvelope } from '../../schemas'
import { type Fixtures, type Sandbox, type SandboxOptions, startSandbox } from '../../sandbox/index'
import type { CreateLogEntry } from '../../sandbox/state'
import { ngBusiness, openInvoice, rigFixtures } from './fixture-builders'
import { type CallOptions, type Method, type Res, call, dataOf, useSandbox } from './http'

export { type CallOptions, type Res, call, dataOf, useSandbox } from './http'

export const K1 = 'svc_sk_b1' // b1: NGN, NG
export const K2 = 'svc_sk_b2' // b2: another business
export const K_NO_API = 'svc_sk_noapi' // developer_api false
export const PK1 = 'svc_pk_b1'
export const PARTNER = 'svc_partner_sk_p'

/**
 * b1 owns invoice i1 (source_uuid s1, 100 with 40 paid) and three bank transactions; b2 owns
 * invoice i2 and transaction t_b2. A generous rate limit and a short job delay keep tests fast.
 */
export function businessFixtures(overrides: Partial<Fixtures> = {}): Fixtures {
  return rigFixtures(
    { name: 'P', key: PARTNER, holding_credits: 1000 },
    {
      businesses: [
        ngBusiness('b1', 'Bakery One', K1, { public_key: PK1 }),
        { uuid: 'b2', name: 'Other Co', key: K2, currency: 'USD', country: 'US' },
        { uuid: 'b3', name: 'No API Ltd', key: K_NO_API, developer_api: false },
      ],
      invoices: [
        openInvoice({ narration: 'Wedding cake' }),
        { uuid: 'i2', business: 'b2', date: '2026-01-06', narration: 'Not yours', total_amount: 50 },
      ],
      bank_transactions: [
        { uuid: 't1', business: 'b1', date: '2026-01-05', amount: -12.5, narration: 'Flour Mills' },
        { uuid: 't2', business: 'b1', date: '2026-01-07', amount: 64000, narration: 'Cafe Lumen transfer' },
        {
          uuid: 't3',
          business: 'b1',
          date: '2026-01-06',
          amount: -8500,
          narration: 'Diesel',
          source_uuid: 'src-t3',
        },
        { uuid: 't_b2', business: 'b2', date: '2026-01-05', amount: 10, narration: 'Other business' },
      ],
    },
    { perMinute: 100_000, jobDelayMs: 50 },
    overrides,
  )
}

export function start(fixtures: Fixtures = businessFixtures(), opts: Omit<SandboxOptions, 'fixtures'> = {}) {
  return startSandbox({ fixtures, port: 0, ...opts })
}

/** An emulator with businessFixtures(overrides) for the calling file or describe block (useSandbox). */
export function businessSandbox(overrides: Partial<Fixtures> = {}): Sandbox {
  return useSandbox(() => start(businessFixtures(overrides)))
}

/** Calls as business b1 (key K1) unless another key is given. */
export function as1(sb: Sandbox, method: Method, path: string, opts: CallOptions = {}): Promise<Res> {
  return call(sb, method, path, { key: K1, ...opts })
}

export function metaOf(res: Res): Record<string, unknown> {
  return successEnvelope(z.unknown()).parse(res.body).meta ?? {}
}

/** The failure envelope of a response with the expected status. */
export function failureOf(res: Res, status: number): z.output<typeof failureEnvelope> {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`)
  return failureEnvelope.parse(res.body)
}

export const anyRecord = z.object({ uuid: z.string(), narration: z.string() }).loose()

export async function creates(sb: Sandbox, filter: { route?: string; business?: string } = {}) {
  const qs = new URLSearchParams(filter as Record<string, string>).toString()
  const res = await fetch(`${sb.origin}/_sandbox/creates${qs ? `?${qs}` : ''}`)
  return ((await res.json()) as { data: CreateLogEntry[] }).data
}

export async function setFaults(sb: Sandbox, faults: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${sb.origin}/_sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(faults),
  })
  if (res.status !== 200) throw new Error(`setting faults failed: ${res.status} ${await res.text()}`)
}

export const jobData = jobSchema.extend({ resource_uuids: z.array(z.string()) })
export type JobData = z.output<typeof jobData>

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls a job until it is completed or failed (at most `timeoutMs`); returns every status seen, in order. */
export async function waitForJob(
  sb: Sandbox,
  ref: string,
  opts: { key?: string; timeoutMs?: number; everyMs?: number } = {},
): Promise<{ job: JobData; seen: JobStatus[] }> {
  const deadline = Date.now() + (opts.timeoutMs ?? 5000)
  const seen: JobStatus[] = []
  for (;;) {
    const job = dataOf(jobData, await call(sb, 'GET', `/jobs/${ref}`, { key: opts.key ?? K1 }))
    if (seen[seen.length - 1] !== job.status) seen.push(job.status)
    if (job.status === 'completed' || job.status === 'failed') return { job, seen }
    if (Date.now() > deadline)
      throw new Error(`job ${ref} still ${job.status} after ${opts.timeoutMs ?? 5000} ms`)
    await sleep(opts.everyMs ?? 10)
  }
}

export const asyncData = z.object({ process_type: z.literal('async'), job_reference: z.string() })

/** Posts an AI create as b1 and waits for its job; returns the finished job. */
export async function createAndWait(sb: Sandbox, path: string, body: Record<string, unknown>, key = K1) {
  const accepted = dataOf(asyncData, await call(sb, 'POST', path, { key, body }))
  return (await waitForJob(sb, accepted.job_reference, { key })).job
}

export const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64')
export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')
