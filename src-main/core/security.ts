/**
 * Security decisions of the IPC bridge and the web host, as pure functions (no Electron import) so
 * they are unit-tested in plain Node (design.md §4: actualbudget's trusted-url.ts). The CSP lives in
 * ./shell/csp.ts (one policy for the desktop shell and the web host).
 */

function parse(url: string | null | undefined): URL | null {
  if (typeof url !== 'string' || url === '') return null
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * True when an IPC message comes from a frame showing the app's own page.
 *
 * `appUrl` is what the main window loads: the dev server (http://localhost:5173/) or the built
 * renderer on the app's own scheme (app://bookdrop/index.html, shell/app-protocol.ts). For
 * http(s) the frame must have the same origin (scheme, host and port); for app: the same scheme and
 * host (any path: the scheme serves only the renderer). A file:// page has the opaque origin "null", so there the frame must show
 * the very same file (query and hash aside): any other local file is not the app. Everything else
 * (about:blank, data:, javascript:, devtools:, another site, an unparsable URL) is refused.
 *
 * The caller also checks that the frame is the window's main frame (not an iframe).
 */
export function isTrustedSender(frameUrl: string | null | undefined, appUrl: string): boolean {
  const frame = parse(frameUrl)
  const app = parse(appUrl)
  if (!frame || !app) return false
  if (app.protocol === 'file:') {
    if (frame.protocol !== 'file:') return false
    // A UNC host (file://server/share) is another machine's file: never ours unless the app is there too.
    if (frame.host !== app.host) return false
    return decodeURIComponent(frame.pathname) === decodeURIComponent(app.pathname)
  }
  if (app.protocol === 'app:') {
    return frame.protocol === 'app:' && frame.host === app.host && frame.username === '' && frame.password === ''
  }
  if (app.protocol !== 'http:' && app.protocol !== 'https:') return false
  if (frame.protocol !== app.protocol) return false
  // Credentials in a URL (http://user@host) are never part of the app's address.
  if (frame.username !== '' || frame.password !== '') return false
  return frame.origin === app.origin
}

/** The origins the web host answers to, for its port: http://127.0.0.1:<port> and http://localhost:<port>. */
export function webHostOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`]
}

/**
 * DNS rebinding guard: the Host header must name the loopback address (or localhost) and the port the
 * web host listens on. A page of evil.example whose name now resolves to 127.0.0.1 sends
 * `Host: evil.example:<port>` and is refused.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  if (typeof host !== 'string') return false
  const h = host.trim().toLowerCase()
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`
}

/**
 * Cross-origin guard: a request whose Origin header is present must come from the web host's own
 * origin (as named by its Host header). No Origin header (curl, a same-origin GET, EventSource in
 * some browsers) is fine: the token still has to be there.
 */
export function isAllowedOrigin(origin: string | undefined, host: string | undefined, port: number): boolean {
  if (origin === undefined) return true
  if (!isAllowedHost(host, port)) return false
  return origin === `http://${(host ?? '').trim().toLowerCase()}`
}
