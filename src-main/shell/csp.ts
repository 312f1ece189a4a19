/**
 * The Content-Security-Policy the desktop shell sets on every response of the app's session.
 * The renderer's index.html carries a meta CSP too; browsers enforce both, so the stricter wins.
 */

export interface CspOptions {
  /** Development: the renderer comes from the Vite dev server with hot reload. */
  dev: boolean
  /** The dev server's origin, e.g. http://localhost:5173 (only used when dev is true). */
  devServerOrigin?: string
}

/** Parses an http(s) origin; returns null for anything else so a bad env var cannot widen the policy. */
function httpOrigin(value: string | undefined): URL | null {
  if (!value) return null
  try {
    const u = new URL(value)
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null
    if (u.username !== '' || u.password !== '') return null
    return u
  } catch {
    return null
  }
}

/** The directives, in order. Exported for tests and for the web host, which can reuse them. */
export function cspDirectives({ dev, devServerOrigin }: CspOptions): [string, string[]][] {
  const script = ["'self'"]
  const connect = ["'self'"]
  const origin = dev ? httpOrigin(devServerOrigin) : null
  if (dev) {
    // @vitejs/plugin-react injects an inline module script (the React Refresh preamble) into the
    // dev server's index.html; production builds have no inline script, so this is dev only.
    script.push("'unsafe-inline'")
  }
  if (origin) {
    const ws = `${origin.protocol === 'https:' ? 'wss:' : 'ws:'}//${origin.host}`
    script.push(origin.origin)
    connect.push(origin.origin, ws) // Vite's HMR socket
  }
  return [
    ['default-src', ["'self'"]],
    ['script-src', script],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['connect-src', connect],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
    ['form-action', ["'none'"]],
  ]
}

/** The policy as one header value: `default-src 'self'; script-src 'self'; …`. */
export function contentSecurityPolicy(options: CspOptions): string {
  return cspDirectives(options)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}

/** Directives a <meta> CSP cannot carry (browsers ignore them there): they travel as headers only. */
export const HEADER_ONLY_DIRECTIVES: readonly string[] = ['frame-ancestors']

/**
 * The policy of the renderer's <meta http-equiv="Content-Security-Policy"> (src-renderer/index.html):
 * the production header policy without the header-only directives. A test keeps the two equal, so a
 * page opened without the header (a file opened by hand, a proxy that drops it) is no weaker.
 */
export function metaContentSecurityPolicy(): string {
  return cspDirectives({ dev: false })
    .filter(([name]) => !HEADER_ONLY_DIRECTIVES.includes(name))
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ')
}

/**
 * Response headers with the policy set, replacing any Content-Security-Policy the response had
 * (header names are case-insensitive, so every spelling is removed first).
 */
export function withCspHeader(
  headers: Record<string, string[] | string> | undefined,
  policy: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue
    out[name] = Array.isArray(value) ? value : [value]
  }
  out['Content-Security-Policy'] = [policy]
  return out
}
