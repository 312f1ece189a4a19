/**
 * The renderer's built files, as both the desktop shell (the app:// protocol) and the web host serve
 * them. One rule for which request paths name a file: only plain spellings, so a path is never decoded
 * and cannot be made to mean another file (or an API route) by how it is written.
 */
import { stat } from 'node:fs/promises'
import { extname, join } from 'node:path'

export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
}

export function contentType(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}

/** True when a raw request target is origin form (`/path?query`), not absolute form, `*` or `//host`. */
export function isOriginForm(target: string | undefined): target is string {
  return typeof target === 'string' && target.startsWith('/') && !target.startsWith('//')
}

const PLAIN_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/

/**
 * The path of a static file request when it is spelled plainly, else null: segments of letters,
 * digits, '.', '_' and '-' (every name the build writes), none starting with '.', so never '.' or
 * '..', and no percent-escapes, ';', '\' or empty segments (one trailing slash is a directory). The
 * query is dropped; nothing is decoded.
 */
export function staticPath(target: string | undefined): string | null {
  if (!isOriginForm(target)) return null
  const path = target.split(/[?#]/, 1)[0]!
  if (path === '/') return '/'
  const segments = path.slice(1).split('/')
  if (segments.at(-1) === '') segments.pop()
  return segments.length > 0 && segments.every((s) => PLAIN_SEGMENT.test(s)) ? path : null
}

/**
 * The file of `rendererDir` a plain path names (a directory's index.html), or, for an unknown path
 * without an extension outside /api, the app's index.html (the renderer routes in the page); null
 * for anything else.
 */
export async function rendererFile(rendererDir: string, pathname: string): Promise<string | null> {
  let file = join(rendererDir, pathname)
  let st = await stat(file).catch(() => null)
  if (st?.isDirectory()) {
    file = join(file, 'index.html')
    st = await stat(file).catch(() => null)
  }
  if (st?.isFile()) return file
  if (extname(pathname) !== '' || /^\/api(\/|$)/i.test(pathname)) return null
  return join(rendererDir, 'index.html')
}
