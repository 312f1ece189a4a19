/**
 * Bookdrop in a browser, without Electron:
 *
 *   npm run web -- --port <n> [--demo] [--data-dir <dir>]
 *
 * Serves the built renderer (out/renderer) and the same contract as the desktop app over HTTP, on
 * 127.0.0.1 only, guarded by a random per-run token:
 *
 *   POST /api/call/:name        JSON body, `Authorization: Bearer <token>` → the call's Result as JSON
 *   GET  /api/events?token=     server-sent events: `event: <name>` + `data: <json>`, keep-alive every 15 s
 *   GET  /api/download/:ticket  a CSV export of <dataDir>/exports, by a single-use ticket (no token)
 *   GET  /*                     the renderer's files, with a strict CSP, nosniff and no-referrer
 *
 * Every request must name 127.0.0.1:<port> or localhost:<port> as Host (DNS rebinding), and carry no
 * Origin or the host's own (other sites). API requests without the token get 401. The renderer's
 * static files are public build output and need no token (so a reload works once the page has moved
 * the token from its URL into sessionStorage). The token is in no URL but the first page's: a
 * download link names a ticket that opens one export, once, within DOWNLOAD_TICKET_TTL_MS (a link
 * kept in the browser's download history or in the file's "where from" opens nothing).
 *
 * "Add from phone" (Capture) starts a second listener, for phones on the LAN, on the address of
 * Settings or of `--phone-listen <address>` (src-main/core/phone/): it serves only the phone's page.
 *
 * Prints exactly one line on stdout once ready: `open http://127.0.0.1:<port>/?token=<token>`.
 * With --demo, or when no profile exists, it runs on the embedded emulator. SIGINT/SIGTERM stop it
 * cleanly (the engine closes; unfinished uploads resume next time).
 */
import { spawnSync } from 'node:child_process'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs'
import { mkdir, readFile, stat } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { isIP } from 'node:net'
import { extname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import { EVENT_NAMES, FILE_CALLS, MAX_CALL_BYTES, type Result } from '../contract'
import { AppService, type AppServiceOptions, type ShellPort } from './core/app-service'
import { dispatch, isCallName } from './core/bridge'
import { defaultDataDir, packageRoot } from './core/paths'
import { startupRefusal } from './core/store/data-dir'
import { privacyNotice } from './core/store/private-dir'
import type { SecretStore } from './core/secrets'
import { isAllowedHost, isAllowedOrigin } from './core/security'
import { contentSecurityPolicy } from './shell/csp'
import { contentType, isOriginForm, rendererFile, staticPath } from './shell/static-files'
import { sandboxDemo } from './demo-launcher'

const ROOT = packageRoot(import.meta.dirname)
export const DEFAULT_RENDERER_DIR = join(ROOT, 'out', 'renderer')
const KEEP_ALIVE_MS = 15_000
/** A call that carries files carries at most ~140 MiB of Base64 (the contract's cap) plus a little JSON. */
const FILE_CALL_BODY_LIMIT = 150 * 1024 * 1024
/** The desktop shell's production policy: the <meta> of index.html, plus object-src, base-uri, frame-ancestors, form-action. */
export const WEB_HOST_CSP = contentSecurityPolicy({ dev: false })
const EXPORT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.csv$/
/** How long a download link works (once): the person clicks it right after exporting. */
export const DOWNLOAD_TICKET_TTL_MS = 10 * 60_000
/** Download links not used yet, at most (the oldest go first). */
const MAX_TICKETS = 100

const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
}

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

function refusal(code: string, message: string): Result<never> {
  return { ok: false, error: { code, message } }
}

function sameSecret(given: string | undefined, token: string): boolean {
  if (typeof given !== 'string') return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

function bearer(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null
  return m?.[1]
}

function queryToken(req: FastifyRequest): string | undefined {
  const q = req.query as Record<string, unknown> | undefined
  return typeof q?.token === 'string' ? q.token : undefined
}

/** What electron-vite builds out/ from (a checkout has them; an installed package does not). */
const BUILD_SOURCES = ['src-main', 'src-preload', 'src-renderer', 'contract', 'schemas', 'sandbox', 'workers']

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return -1
  }
}

/** The newest mtime of a source file out/ is built from; -1 when there are none. */
function newestBuildSource(): number {
  let newest = -1
  for (const dir of BUILD_SOURCES) {
    let entries
    try {
      entries = readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    } catch {
      continue
    }
    for (const e of entries) {
      if (e.isFile() && /\.(tsx?|css|html)$/.test(e.name)) newest = Math.max(newest, mtimeOf(join(e.parentPath, e.name)))
    }
  }
  return newest
}

/**
 * True when the built renderer is there, and (in a checkout, for the default out/renderer) no
 * source is newer than it: a pulled change is never served from a stale build.
 */
export function rendererBuilt(dir = DEFAULT_RENDERER_DIR): boolean {
  const built = mtimeOf(join(dir, 'index.html'))
  if (built < 0) return false
  return dir !== DEFAULT_RENDERER_DIR || newestBuildSource() <= built
}

/**
 * Builds out/ with electron-vite when the renderer is missing (its output goes to stderr, so stdout
 * keeps only the ready line). Returns false when it could not.
 */
export function buildRenderer(): boolean {
  const bin = join(
    ROOT,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite',
  )
  if (!existsSync(bin)) return false
  const r = spawnSync(bin, ['build'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  })
  return r.status === 0 && rendererBuilt()
}

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const rendererDir = resolve(opts.rendererDir ?? DEFAULT_RENDERER_DIR)
  if (!rendererBuilt(rendererDir)) {
    throw new Error(
      `The renderer is not built (${join(rendererDir, 'index.html')} is missing, or older than a source): run \`npm run build\` first.`,
    )
  }
  const token = randomBytes(24).toString('base64url')
  /** Download tickets: ticket → the export it opens, until when. */
  const tickets = new Map<string, { file: string; until: number }>()
  const shell: ShellPort = {
    pickDirectory: async () => null,
    showItemInFolder: async () => false,
    downloadUrl: (file) => {
      const ticket = randomBytes(24).toString('base64url')
      tickets.set(ticket, { file, until: Date.now() + DOWNLOAD_TICKET_TTL_MS })
      while (tickets.size > MAX_TICKETS) tickets.delete(tickets.keys().next().value!)
      return `/api/download/${ticket}`
    },
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

  // Every request: an origin-form target, the right Host (DNS rebinding), no foreign Origin, and the
  // security headers. Nothing here decides who may run a call: that is the API scope's own hook below.
  app.addHook('onRequest', async (req, reply) => {
    reply.headers(SECURITY_HEADERS)
    if (!isOriginForm(req.raw.url)) {
      return reply
        .code(400)
        .send(refusal('bad_request', 'Bookdrop takes only a path as the request target (origin form).'))
    }
    if (!isAllowedHost(req.headers.host, port)) {
      return reply
        .code(403)
        .send(refusal('forbidden_host', 'Bookdrop answers only to 127.0.0.1 and localhost.'))
    }
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined
    if (!isAllowedOrigin(origin, req.headers.host, port)) {
      return reply.code(403).send(refusal('forbidden_origin', 'Requests from other sites are refused.'))
    }
  })

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 600 ? err.statusCode : 500
    const message =
      status === 413
        ? 'The request is too large: send fewer or smaller files at a time.'
        : status < 500
          ? err.message
          : 'Something went wrong in the web host.'
    void reply.code(status).send(refusal(status < 500 ? 'bad_request' : 'internal', message))
  })

  // Everything under /api lives in one Fastify scope whose onRequest hook checks the token. Fastify
  // runs a scope's hooks for the route that MATCHED, whatever the raw spelling of the path was
  // (percent-encoded letters, and so on), so authentication never depends on how the URL was written.
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (req, reply) => {
        reply.header('Cache-Control', 'no-store')
        const given =
          req.method === 'GET' || req.method === 'HEAD' ? (queryToken(req) ?? bearer(req)) : bearer(req)
        if (!sameSecret(given, token)) {
          return reply
            .code(401)
            .send(refusal('unauthorized', 'Missing or wrong token: open the link the web host printed.'))
        }
      })

      // Calls that carry files as bytes keep the large limit, each on a route of its own (Fastify
      // decides the limit before it reads the body); every other call at most 1 MiB (the app's bodyLimit).
      for (const name of FILE_CALLS) {
        api.post(`/call/${name}`, { bodyLimit: FILE_CALL_BODY_LIMIT }, async (req) =>
          dispatch(service, name, req.body),
        )
      }
      api.post<{ Params: { name: string } }>('/call/:name', async (req, reply) => {
        const name = req.params.name
        if (!isCallName(name)) reply.code(404)
        return dispatch(service, name, req.body)
      })

      api.get('/events', (req, reply) => {
        reply.hijack()
        const res = reply.raw
        res.writeHead(200, {
          ...SECURITY_HEADERS,
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-store',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        })
        res.write(`retry: 2000\n: connected\n\n`)
        streams.add(res)
        const off = service.onEvent((name, payload) => {
          if ((EVENT_NAMES as readonly string[]).includes(name))
            res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)
        })
        const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS)
        keepAlive.unref()
        const done = () => {
          off()
          clearInterval(keepAlive)
          streams.delete(res)
        }
        req.raw.on('close', done)
        res.on('close', done)
        res.on('error', done)
      })

      api.all('/*', async (_req, reply) => reply.code(404).send(refusal('not_found', 'No such API route.')))
    },
    { prefix: '/api' },
  )

  // Downloads: a scope of their own, whose hook takes the single-use ticket of the path in place of
  // the token (a browser download cannot send a header, and the token must not sit in a URL).
  await app.register(
    async (dl) => {
      dl.addHook('onRequest', async (_req, reply) => {
        reply.header('Cache-Control', 'no-store')
      })
      // No HEAD: it would spend the ticket without giving the file.
      dl.get<{ Params: { ticket: string } }>('/:ticket', { exposeHeadRoute: false }, async (req, reply) => {
        const gone = () =>
          reply.code(404).send(refusal('not_found', 'This download link was used already or has expired: export the history again.'))
        const entry = tickets.get(req.params.ticket)
        if (!entry) return gone()
        tickets.delete(req.params.ticket)
        if (entry.until < Date.now() || !EXPORT_NAME.test(entry.file)) return gone()
        const path = join(opts.dataDir, 'exports', entry.file)
        const st = await stat(path).catch(() => null)
        if (!st?.isFile()) return gone()
        reply.header('Content-Type', 'text/csv; charset=utf-8')
        reply.header('Content-Disposition', `attachment; filename="${entry.file}"`)
        reply.header('Content-Length', String(st.size))
        return reply.send(createReadStream(path))
      })
    },
    { prefix: '/api/download' },
  )

  // The app icon, so a browser's automatic request for it is answered (public, like every static file).
  app.get('/favicon.ico', async (_req, reply) => {
    const icon = await readFile(join(rendererDir, 'favicon.png')).catch(() => null)
    if (!icon) return reply.code(404).send('Not found')
    reply.header('Content-Type', 'image/png')
    reply.header('Cache-Control', 'public, max-age=86400')
    return reply.send(icon)
  })

  // The renderer's files, for plainly spelled paths only (shell/static-files.ts): an odd spelling
  // of an API path is a 404 here, never the app's page.
  const sendStatic = async (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = staticPath(req.raw.url)
    const file = pathname === null ? null : await rendererFile(rendererDir, pathname)
    if (pathname === null || file === null) return reply.code(404).send('Not found')
    const ext = extname(file).toLowerCase()
    reply.header('Content-Type', contentType(file))
    reply.header('Content-Security-Policy', WEB_HOST_CSP)
    reply.header(
      'Cache-Control',
      ext === '.html'
        ? 'no-store'
        : pathname.startsWith('/assets/')
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
    )
    return reply.send(await readFile(file))
  }
  app.get('/*', sendStatic)

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

// ---------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------

const USAGE =
  'usage: npm run web -- --port <n> [--demo] [--data-dir <dir>] [--reset-queue] [--phone-listen <address>]'

export async function main(argv: string[]): Promise<number> {
  let values: {
    port?: string
    demo?: boolean
    'data-dir'?: string
    'reset-queue'?: boolean
    'phone-listen'?: string
    help?: boolean
  }
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        demo: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        'reset-queue': { type: 'boolean', default: false },
        'phone-listen': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`)
    return 2
  }
  if (values.help) {
    console.error(USAGE)
    return 0
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a whole number from 0 to 65535\n${USAGE}`)
    return 2
  }
  const phoneListen = values['phone-listen']
  if (phoneListen !== undefined && !isIP(phoneListen)) {
    console.error(`--phone-listen takes an IP address of this computer (e.g. 192.168.1.20, or 127.0.0.1 for tests)\n${USAGE}`)
    return 2
  }
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir())
  await mkdir(dataDir, { recursive: true, mode: 0o700 })

  if (!rendererBuilt()) {
    console.error('bookdrop: the renderer is not built yet; building it now (electron-vite build)…')
    if (!buildRenderer()) {
      console.error(
        'bookdrop: the renderer could not be built: run `npm run build`, then `npm run web` again.',
      )
      return 1
    }
  }

  let host: WebHost
  try {
    host = await startWebHost({
      port,
      dataDir,
      demo: values.demo ?? false,
      resetQueue: values['reset-queue'] ?? false,
      phoneListen,
    })
  } catch (e) {
    const refused = startupRefusal(e, dataDir)
    if (refused) {
      console.error(refused.message)
      return refused.code
    }
    console.error(`bookdrop: ${(e as Error).message}`)
    return 1
  }
  const privacy = privacyNotice(dataDir, host.service.engine.openReport.madePrivate)
  if (privacy) console.error(privacy)
  const moved = host.service.engine.openReport.movedAside
  if (moved)
    console.error(
      `bookdrop: the unreadable queue database was moved aside to ${moved}; starting with an empty queue`,
    )
  console.log(`open ${host.url}`)

  return new Promise<number>((resolveExit) => {
    let stopping = false
    const stop = (signal: string) => {
      if (stopping) return
      stopping = true
      console.error(`bookdrop: ${signal}, stopping (unfinished uploads resume next time)`)
      host.stop().then(
        () => {
          console.error('bookdrop: stopped')
          resolveExit(0)
        },
        (e: unknown) => {
          console.error(`bookdrop: ${(e as Error).message}`)
          resolveExit(1)
        },
      )
    }
    // `on`, not `once`: Ctrl+C reaches this process twice (from the terminal, and relayed by tsx/npm),
    // and a second signal must not kill it halfway through closing the database.
    process.on('SIGINT', () => stop('SIGINT'))
    process.on('SIGTERM', () => stop('SIGTERM'))
  })
}

// Run when executed directly (tsx src-main/web-host.ts).
if (process.argv[1] && /web-host\.(ts|js|mjs)$/.test(process.argv[1])) {
  void main(process.argv.slice(2)).then((code) => process.exit(code))
}
