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
import { main } from './web-host/cli'

// The parts (src-main/web-host/): server.ts composes guard.ts (every request), auth.ts (the token of
// the /api scope), api-routes.ts (calls and events), downloads.ts (exports by ticket), static.ts
// (the renderer's files and their CSP); renderer-build.ts builds out/renderer; cli.ts is `npm run web`.
export { main }
export { DOWNLOAD_TICKET_TTL_MS } from './web-host/downloads'
export { DEFAULT_RENDERER_DIR, buildRenderer, rendererBuilt } from './web-host/renderer-build'
export { type WebHost, type WebHostOptions, startWebHost } from './web-host/server'
export { WEB_HOST_CSP } from './web-host/static'

// Run when executed directly (tsx src-main/web-host.ts).
if (process.argv[1] && /web-host\.(ts|js|mjs)$/.test(process.argv[1])) {
  void main(process.argv.slice(2)).then((code) => process.exit(code))
}
