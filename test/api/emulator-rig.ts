/**
 * The client-against-the-emulator tests' shared parts (test/api/client-emulator-*.test.ts): fixtures,
 * keys, and `useEmulator(variant)`, which starts a fresh emulator of that variant before each test
 * (and stops it after) and gives the clients and helpers the tests use.
 */
import { afterEach, beforeEach } from 'vitest'
import { type JobRead, type PurchaseOrderInput } from '../../schemas'
import { startSandbox, type Fixtures, type Sandbox } from '../../sandbox/index'
import { BookkeepingClient, type ClientAuth, type ResponseInfo } from '../../src-main/core/api'
import type { SandboxVariant } from '../../sandbox/index'
import { ngBusiness, openInvoice, rigFixtures } from '../sandbox/fixture-builders'
import { failure } from './failure'

export const BUSINESS_KEY = 'svc_sk_x'
export const PARTNER_KEY = 'svc_partner_sk_x'

export function fixtures(extra: Partial<Fixtures> = {}): Fixtures {
  return rigFixtures(
    { name: 'P', key: PARTNER_KEY, holding_credits: 5000 },
    {
      businesses: [
        ngBusiness('b1', 'B', BUSINESS_KEY, {
          public_key: 'svc_pk_x',
          developer_api: true,
          plus_subscription: false,
          credit_from_referral_partner: false,
          referred_by: PARTNER_KEY,
        }),
      ],
      invoices: [openInvoice({ narration: 'n' })],
      bank_transactions: [{ uuid: 't1', business: 'b1', date: '2026-01-05', amount: -12.5, narration: 'n' }],
    },
    { perMinute: 600, jobDelayMs: 300 },
    extra,
  )
}

/** A fresh emulator of `variant` for each test of the calling describe block, and its clients. */
export function useEmulator(variant: SandboxVariant) {
  /** What the client reads for a field that is our guess: the value in full answers, else the fallback. */
  const ours = <T, F = null>(value: T, fallback: F = null as F): T | F =>
    variant === 'default' ? value : fallback

  let sb: Sandbox
  let responses: ResponseInfo[]

  async function start(f: Fixtures = fixtures()): Promise<void> {
    await sb?.stop()
    sb = await startSandbox({ fixtures: f, port: 0, variant })
    responses = []
  }

  beforeEach(async () => {
    await start()
  })

  afterEach(async () => {
    await sb.stop()
  })

  function client(auth: ClientAuth = { key: BUSINESS_KEY }): BookkeepingClient {
    return new BookkeepingClient({
      environment: 'custom',
      baseUrl: sb.url,
      auth,
      onResponse: (i) => responses.push(i),
    })
  }

  const business = () => client()
  const partner = () => client({ key: PARTNER_KEY })

  /** Polls a job until it is completed or failed (the emulator finishes after job_delay_ms). */
  async function settle(c: BookkeepingClient, ref: string): Promise<JobRead> {
    const deadline = Date.now() + 10_000
    for (;;) {
      const job = await c.getJob(ref)
      if (job.status === 'completed' || job.status === 'failed') return job
      if (Date.now() > deadline) throw new Error(`job ${ref} still ${job.status}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  const po: PurchaseOrderInput = {
    date: '2026-01-05',
    vendor: 'Flour Mills',
    narration: 'Flour for January',
    items: [
      { name: 'Flour 50kg', quantity: 2, price: 25_000 },
      { item_name: 'Delivery', quantity: 1, selling_price: 1_000, tax: 7.5 },
    ],
  }

  const registration = {
    email: 'owner@newshop.example',
    firstname: 'Ada',
    lastname: 'Obi',
    business_name: 'New Shop',
    password: 'corr3ct-Horse!',
    country: 'NG',
    currency: 'NGN',
    timezone: 'Africa/Lagos',
    grant_access: 'admin' as const,
  }

  return {
    /** The running emulator of the current test. */
    get sb(): Sandbox {
      return sb
    },
    /** Every response the test's clients saw, in order. */
    get responses(): ResponseInfo[] {
      return responses
    },
    ours,
    start,
    client,
    business,
    partner,
    failure,
    settle,
    po,
    registration,
  }
}
