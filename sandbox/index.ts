/**
 * The embedded emulator of the bookkeeping API ("the sandbox"): a real HTTP server on loopback,
 * faithful to api-spec.md and the choices of design.md §3, with fault injection.
 *
 *   const sb = await startSandbox({ fixtures, port: 0 })   // sb.url = http://127.0.0.1:<port>/v1
 *   ...
 *   await sb.stop()
 */
import type { FastifyInstance } from 'fastify'
import { LIMITS } from '../schemas'
import type { RouteContext } from './context'
import { type DemoKeys, demoFixtures } from './demo'
import { type DOCUMENT_LIMITS, documentPool } from './documents'
import { registerBusinessRoutes } from './routes/business'
import { registerPartnerRoutes } from './routes/partner'
import { BASE_PATH, buildServer } from './server'
import { type Fixtures, type FaultsInput, SandboxState, parseFixtures } from './state'
import { SANDBOX_VARIANTS, type SandboxVariant, isSandboxVariant } from './variants'

export type { Fixtures, FaultsInput } from './state'
export { SANDBOX_VARIANTS, type SandboxVariant } from './variants'
export { CONTROL_HEADER } from './server'
export type { RouteContext } from './context'
export { type DemoKeys, demoFixtures } from './demo'

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
  /**
   * The control routes (/_sandbox/*) need this secret (header x-sandbox-control) and the loopback
   * Host: set by the app for the emulator it runs inside itself (demo mode). Unset, they answer any
   * loopback client (`npm run sandbox`, tests).
   */
  controlSecret?: string
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
  const app = buildServer(state, {
    logger: opts.logger ?? false,
    maxBodyBytes: opts.maxBodyBytes,
    controlSecret: opts.controlSecret,
  })
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
