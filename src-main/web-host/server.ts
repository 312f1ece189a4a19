/**
 * The web host's server: the app service for the browser (no native dialogs; exports by download
 * link) and one Fastify app on 127.0.0.1 that checks every request (guard.ts), serves the contract
 * under `/api` behind the token (api-routes.ts, auth.ts), the exports by ticket (downloads.ts) and
 * the renderer's files (static.ts).
 */
import type { ServerResponse } from 'node:http'
import { join, resolve } from 'node:path'
import Fastify from 'fastify'
import { MAX_CALL_BYTES } from '../../contract'
import { AppService, type AppServiceOptions, type ShellPort } from '../core/app-service'
import type { SecretStore } from '../core/secrets'
import { sandboxDemo } from '../demo-launcher'
import { registerApi } from './api-routes'
import { randomSecret } from './auth'
import { downloads } from './downloads'
import { guardEveryRequest } from './guard'
import { DEFAULT_RENDERER_DIR, rendererBuilt } from './renderer-build'
import { registerStatic } from './static'

export interface WebHostOptions {
  /** 0 picks a free port. */
  port: number
  dataDir: string
  /** Start the demo mode even if profiles exist (it starts anyway when there are none). */
  demo?: boolean
  /**
   * With no profile at all, start the demo by itself (default true). False opens on the first-run
   * screen instead (connect with a key, or "Try demo"), like the desktop app's `--no-demo`.
   */
  autoDemo?: boolean
  /** The built renderer; out/renderer by default. */
  rendererDir?: string
  /** Where real keys live; the OS keychain by default. */
  secretStore?: SecretStore
  engine?: AppServiceOptions['engine']
  /** The queue database cannot be read: move it aside and start fresh. */
  resetQueue?: boolean
  /**
   * "Add from phone" listens on this address (--phone-listen) instead of the one in Settings: one of
   * this computer's private-network addresses, or loopback (tests).
   */
  phoneListen?: string
  /** Tests: the clock of the phone pairing (link lifetime, idle sessions). */
  phoneClock?: () => number
}

export interface WebHost {
  /** http://127.0.0.1:<port>/?token=<token> */
  url: string
  origin: string
  port: number
  token: string
  service: AppService
  stop(): Promise<void>
}

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const rendererDir = resolve(opts.rendererDir ?? DEFAULT_RENDERER_DIR)
  if (!rendererBuilt(rendererDir)) {
    throw new Error(
      `The renderer is not built (${join(rendererDir, 'index.html')} is missing, or older than a source): run \`npm run build\` first.`,
    )
  }
  const token = randomSecret()
  const exports = downloads()
  const shell: ShellPort = {
    pickDirectory: async () => null,
    showItemInFolder: async () => false,
    downloadUrl: (file) => exports.url(file),
  }
  const service = await AppService.open({
    dataDir: opts.dataDir,
    host: 'web',
    shell,
    secretStore: opts.secretStore,
    demo: opts.autoDemo ?? true,
    demoLauncher: sandboxDemo,
    engine: opts.engine,
    resetQueue: opts.resetQueue ?? false,
    phone: { listen: opts.phoneListen, rendererDir, clock: opts.phoneClock },
  })
  let port = opts.port
  const streams = new Set<ServerResponse>()
  const app = Fastify({ logger: false, trustProxy: false, bodyLimit: MAX_CALL_BYTES })
  // JSON only: a text/plain POST is what a foreign page can send without a CORS preflight.
  app.removeContentTypeParser('text/plain')

  guardEveryRequest(app, () => port)
  await registerApi(app, { service, token, streams })
  await exports.register(app, opts.dataDir)
  registerStatic(app, rendererDir)

  await app.listen({ host: '127.0.0.1', port: opts.port })
  const addr = app.server.address()
  port = typeof addr === 'object' && addr ? addr.port : opts.port
  const origin = `http://127.0.0.1:${port}`

  if (opts.demo) await service.startDemo({})

  let stopping: Promise<void> | null = null
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    service,
    stop() {
      stopping ??= (async () => {
        for (const res of streams) res.end()
        streams.clear()
        app.server.closeAllConnections?.()
        await app.close()
        await service.close()
      })()
      return stopping
    },
  }
}
