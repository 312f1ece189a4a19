/**
 * The embedded emulator of the bookkeeping API ("the sandbox"): a real HTTP server on loopback,
 * faithful to api-spec.md and the choices of design.md §3, with fault injection.
 *
 *   const sb = await startSandbox({ fixtures, port: 0 })   // sb.url = http://127.0.0.1:<port>/v1
 *   ...
 *   await sb.stop()
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { LIMITS } from '../schemas'
import type { TaskPool } from '../workers/pool'
import type { DOCUMENT_LIMITS } from './documents'
import { type DocumentTasks, documentPool } from './documents'
import { registerBusinessRoutes } from './routes/business'
import { registerPartnerRoutes } from './routes/partner'
import { BASE_PATH, buildServer } from './server'
import { type Fixtures, type FaultsInput, SandboxState, parseFixtures } from './state'
import { SANDBOX_VARIANTS, type SandboxVariant, isSandboxVariant } from './variants'

export type { Fixtures, FaultsInput } from './state'
export { SANDBOX_VARIANTS, type SandboxVariant } from './variants'

export interface SandboxOptions {
  /** Seed data; when omitted a demo business and a demo partner are created with fresh keys. */
  fixtures?: Fixtures
  /** 0 (default) picks a free port. */
  port?: number
  /** Faults active from the start. */
  faults?: FaultsInput
  /**
   * `default` answers with our full shapes (design.md §3); `spec-minimal` with only what api-spec.md
   * names, other names for our guesses and unknown extra fields (sandbox/variants.ts).
   */
  variant?: SandboxVariant
  /** Extra CA certificates (PEM) trusted when fetching `url` attachments (tests use a local https server). */
  urlFetchCa?: string
  /** Fetch timeout for `url` attachments, ms. */
  urlFetchTimeoutMs?: number
  logger?: boolean
  /** The documents worker's limits (sandbox/documents.ts DOCUMENT_LIMITS); tests lower them. */
  documentLimits?: Partial<typeof DOCUMENT_LIMITS>
  /** Raise the body and attachment limits (benchmarks send a 100 MB file). */
  maxBodyBytes?: number
  maxAttachmentBytes?: number
}

export interface DemoKeys {
  businessKey: string
  businessPublicKey: string
  businessUuid: string
  partnerKey: string
}

export interface Sandbox {
  /** Base URL including the version prefix: http://127.0.0.1:<port>/v1 */
  url: string
  /** Origin without the version prefix, where /_sandbox control routes live. */
  origin: string
  port: number
  state: SandboxState
  app: FastifyInstance
  /** Set when no fixtures were given. */
  demo: DemoKeys | null
  variant: SandboxVariant
  setFaults(f: FaultsInput): void
  stop(): Promise<void>
}

export interface RouteContext {
  urlFetchCa?: string
  urlFetchTimeoutMs?: number
  /** Largest decoded attachment accepted. */
  maxAttachmentBytes: number
  /** Timers owned by the emulator (job progress); cleared on stop. */
  timers: Set<NodeJS.Timeout>
  /** Where documents are read (a worker with limits); closed on stop. */
  documents: TaskPool<DocumentTasks>
}

export function demoFixtures(): { fixtures: Fixtures; demo: DemoKeys } {
  const rand = () => randomBytes(16).toString('hex')
  const demo: DemoKeys = {
    businessKey: `svc_sk_demo_${rand()}`,
    businessPublicKey: `svc_pk_demo_${rand()}`,
    businessUuid: 'demo-business-0001',
    partnerKey: `svc_partner_sk_demo_${rand()}`,
  }
  const today = new Date()
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10)
  const fixtures: Fixtures = {
    partners: [{ name: 'Demo Partner Accounting', key: demo.partnerKey, holding_credits: 50_000 }],
    businesses: [
      {
        uuid: demo.businessUuid,
        name: 'Demo Bakery Ltd',
        email: 'owner@demo-bakery.example',
        key: demo.businessKey,
        public_key: demo.businessPublicKey,
        currency: 'NGN',
        country: 'NG',
        developer_api: true,
        plus_subscription: false,
        credit_from_referral_partner: false,
        referred_by: demo.partnerKey,
        credit_balance: 1000,
      },
    ],
    invoices: [
      {
        uuid: 'demo-inv-0001',
        source_uuid: 'INV-1001',
        business: demo.businessUuid,
        date: day(-20),
        due_date: day(10),
        narration: 'Wedding cake order',
        total_amount: 185000,
        amount_paid: 50000,
        currency: 'NGN',
      },
      {
        uuid: 'demo-inv-0002',
        source_uuid: 'INV-1002',
        business: demo.businessUuid,
        date: day(-12),
        due_date: day(18),
        narration: 'Weekly bread supply, Cafe Lumen',
        total_amount: 64000,
        amount_paid: 64000,
        currency: 'NGN',
      },
      {
        uuid: 'demo-inv-0003',
        source_uuid: 'INV-1003',
        business: demo.businessUuid,
        date: day(-3),
        due_date: day(27),
        narration: 'Corporate pastries',
        total_amount: 92500,
        amount_paid: 0,
        currency: 'NGN',
      },
    ],
    bank_transactions: [
      {
        uuid: 'demo-tx-0001',
        business: demo.businessUuid,
        date: day(-9),
        amount: -42000,
        narration: 'Flour Mills Nigeria',
      },
      {
        uuid: 'demo-tx-0002',
        business: demo.businessUuid,
        date: day(-7),
        amount: 64000,
        narration: 'Cafe Lumen transfer',
      },
      {
        uuid: 'demo-tx-0003',
        business: demo.businessUuid,
        date: day(-2),
        amount: -8500,
        narration: 'Diesel for generator',
      },
    ],
    rate_limit: { limit: 600, window_seconds: 60 },
    job_delay_ms: 800,
  }
  return { fixtures, demo }
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  let demo: DemoKeys | null = null
  let fixtures = opts.fixtures
  if (!fixtures) {
    const d = demoFixtures()
    fixtures = d.fixtures
    demo = d.demo
  }
  const variant = opts.variant ?? 'default'
  if (!isSandboxVariant(variant))
    throw new Error(`unknown sandbox variant "${String(variant)}": use ${SANDBOX_VARIANTS.join(' or ')}`)
  const state = new SandboxState(parseFixtures(fixtures))
  state.variant = variant
  if (opts.faults) state.setFaults(opts.faults)
  const app = buildServer(state, { logger: opts.logger ?? false, maxBodyBytes: opts.maxBodyBytes })
  const ctx: RouteContext = {
    urlFetchCa: opts.urlFetchCa,
    urlFetchTimeoutMs: opts.urlFetchTimeoutMs,
    maxAttachmentBytes: opts.maxAttachmentBytes ?? LIMITS.maxAttachmentBytes,
    timers: new Set(),
    documents: documentPool(opts.maxAttachmentBytes ?? LIMITS.maxAttachmentBytes, opts.documentLimits),
  }
  await app.register(
    async (v1) => {
      registerBusinessRoutes(v1, state, ctx)
      registerPartnerRoutes(v1, state, ctx)
    },
    { prefix: BASE_PATH },
  )
  await app.listen({ host: '127.0.0.1', port: opts.port ?? 0 })
  const addr = app.server.address()
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0)
  const origin = `http://127.0.0.1:${port}`
  let stopped = false
  return {
    url: `${origin}${BASE_PATH}`,
    origin,
    port,
    state,
    app,
    demo,
    variant,
    setFaults(f) {
      state.setFaults(f)
    },
    async stop() {
      if (stopped) return
      stopped = true
      for (const t of ctx.timers) clearTimeout(t)
      ctx.timers.clear()
      app.server.closeAllConnections?.()
      await Promise.all([app.close(), ctx.documents.close()])
    },
  }
}
