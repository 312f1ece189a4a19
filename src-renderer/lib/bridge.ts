/**
 * The renderer's one way to main. In the desktop app that is `window.bookdrop` (the preload). In a
 * browser, through the web host (`npm run web`), the same BookdropApi is built here over HTTP:
 * every call of CALL_NAMES is `POST /api/call/<name>` with the per-run token, and events arrive on
 * one EventSource (`/api/events`). Either way a call resolves to a Result and never throws: a network
 * failure becomes `{ ok: false, error: { code: 'network', message } }`.
 *
 * The token comes from `?token=` in the page's URL the first time; it is then kept in sessionStorage
 * (so a reload works) and removed from the visible URL.
 */
import type { BookdropApi, Events, Result } from '../../contract'
// The name lists only: the contract's schemas (and zod) stay out of the first bundle.
import { CALL_NAMES, type CallName, EVENT_NAMES, type EventName } from '../../contract/names'
import { wordError } from './coded'

declare const __BOOKDROP_VERSION__: string | undefined

const TOKEN_KEY = 'bookdrop.token'

export interface HttpBridgeOptions {
  /** Where the web host is; the page's own origin ('') by default. */
  baseUrl?: string
  /** The host's token; by default taken from the page URL or sessionStorage (see takeToken). */
  token?: string
  fetch?: typeof fetch
  /** The EventSource class; the browser's by default. Without one, `on` listens to nothing. */
  EventSource?: typeof EventSource
}

/** Reads `?token=` from the page URL into sessionStorage and removes it from the URL; or the saved one. */
export function takeToken(): string | null {
  if (typeof window === 'undefined') return null
  try {
    const url = new URL(window.location.href)
    const fromUrl = url.searchParams.get('token')
    if (fromUrl) {
      window.sessionStorage.setItem(TOKEN_KEY, fromUrl)
      url.searchParams.delete('token')
      window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
      return fromUrl
    }
    return window.sessionStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

function isResult(v: unknown): v is Result<unknown> {
  return typeof v === 'object' && v !== null && 'ok' in v && typeof (v as { ok: unknown }).ok === 'boolean'
}

function networkError(e: unknown): Result<never> {
  const why = e instanceof Error ? e.message : String(e)
  return {
    ok: false,
    error: {
      code: 'network',
      message: `Bookdrop's web host cannot be reached (${why}). Is \`npm run web\` still running?`,
    },
  }
}

const appVersion = typeof __BOOKDROP_VERSION__ === 'string' ? __BOOKDROP_VERSION__ : '0.0.0-dev'

/** The BookdropApi over the web host's HTTP API. */
export function createHttpBridge(opts: HttpBridgeOptions = {}): BookdropApi {
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '')
  let token: string | null = opts.token ?? null
  const getToken = (): string => (token ??= takeToken() ?? '')
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => fetch(input, init))
  const ES = opts.EventSource ?? (typeof EventSource === 'function' ? EventSource : undefined)

  async function call(name: CallName, req: unknown): Promise<Result<unknown>> {
    let res: Response
    try {
      res = await doFetch(`${base}/api/call/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${getToken()}` },
        body: JSON.stringify(req ?? {}),
        credentials: 'omit',
        cache: 'no-store',
      })
    } catch (e) {
      return networkError(e)
    }
    let body: unknown
    try {
      body = await res.json()
    } catch {
      body = undefined
    }
    if (isResult(body)) return body
    return {
      ok: false,
      error: {
        code: res.ok ? 'bad_response' : `http_${res.status}`,
        message: `The web host answered ${res.status} without a result.`,
        status: res.status,
      },
    }
  }

  type Listener = (payload: unknown) => void
  const listeners = new Map<EventName, Set<Listener>>()
  let source: EventSource | null = null

  function ensureStream(): void {
    if (source || !ES) return
    source = new ES(`${base}/api/events?token=${encodeURIComponent(getToken())}`)
    for (const name of EVENT_NAMES) {
      source.addEventListener(name, (ev) => {
        let payload: unknown
        try {
          payload = JSON.parse((ev as MessageEvent<string>).data)
        } catch {
          return
        }
        for (const fn of listeners.get(name) ?? []) fn(payload)
      })
    }
  }

  const calls = Object.fromEntries(CALL_NAMES.map((name) => [name, (req: unknown) => call(name, req)]))

  return Object.freeze({
    ...calls,
    version: appVersion,
    on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void {
      let set = listeners.get(name)
      if (!set) listeners.set(name, (set = new Set()))
      const fn = listener as Listener
      set.add(fn)
      ensureStream()
      return () => {
        set.delete(fn)
      }
    },
  }) as BookdropApi
}

/**
 * The renderer's one place where main's errors are worded (issue 34): every failed call's error
 * comes back with its message (and field messages) in the person's language when main sent a code.
 */
export function wordingErrors(api: BookdropApi): BookdropApi {
  const worded = Object.fromEntries(
    CALL_NAMES.map((name) => {
      const call = api[name] as (req: unknown) => Promise<Result<unknown>>
      return [
        name,
        async (req: unknown): Promise<Result<unknown>> => {
          const r = await call(req)
          return r && typeof r === 'object' && r.ok === false && r.error ? { ok: false, error: wordError(r.error) } : r
        },
      ]
    }),
  )
  const pathForFile = api.pathForFile
  const whole: Record<string, unknown> = {
    ...worded,
    version: api.version,
    on: api.on.bind(api),
    ...(pathForFile ? { pathForFile: (file: File) => pathForFile(file) } : {}),
  }
  return Object.freeze(whole) as unknown as BookdropApi
}

/** The bridge the renderer uses: the preload's in Electron, HTTP to the web host elsewhere. */
export const bookdrop: BookdropApi = wordingErrors(
  typeof window !== 'undefined' && window.bookdrop ? window.bookdrop : createHttpBridge(),
)
