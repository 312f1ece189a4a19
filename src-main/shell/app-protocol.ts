/**
 * The desktop app's renderer is served from a custom `app://bookdrop/` scheme (Electron's
 * protocol.handle), not from file://. A file: page shares the opaque origin "null" with every other
 * local file and needs the GrantFileProtocolExtraPrivileges fuse; app:// is one origin of its own,
 * serves only the built renderer's files, and lets that fuse be turned off (build/after-pack.cjs).
 * Plain Node: the shell (src-main/electron) wires it to Electron; tests call it directly.
 */
import { readFile } from 'node:fs/promises'
import { rendererFile, contentType, staticPath } from './static-files'

export const APP_SCHEME = 'app'
export const APP_HOST = 'bookdrop'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
/** What the main window loads. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`

/**
 * Privileges of the scheme (registered before the app is ready): standard (a real origin, relative
 * URLs resolve), secure (like https: for the web platform), fetch for the page's own files; no CORS,
 * no service workers, no bypassing the CSP.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: false,
  bypassCSP: false,
  allowServiceWorkers: false,
  stream: false,
} as const

export interface AppProtocolAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer | string
  /** The file served, for tests and logs; null when refused. */
  file: string | null
}

/**
 * The answer to one request of the app:// scheme: a file of `rendererDir` for a plainly spelled path
 * on the app's own host (see static-files.ts), with the CSP; 404 for anything else.
 */
export async function answerAppRequest(
  url: string,
  rendererDir: string,
  csp: string,
  method = 'GET',
): Promise<AppProtocolAnswer> {
  if (method !== 'GET' && method !== 'HEAD') {
    return { status: 405, headers: { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Method not allowed', file: null }
  }
  const notFound: AppProtocolAnswer = {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    body: 'Not found',
    file: null,
  }
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return notFound
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST || u.username !== '' || u.password !== '') return notFound
  const pathname = staticPath(`${u.pathname}${u.search}`)
  const file = pathname === null ? null : await rendererFile(rendererDir, pathname)
  if (!file) return notFound
  const body = await readFile(file).catch(() => null)
  if (!body) return notFound
  return {
    status: 200,
    headers: {
      'Content-Type': contentType(file),
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    },
    body,
    file,
  }
}
