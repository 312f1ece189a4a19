/**
 * Which URLs the desktop shell may hand to the OS, and which navigations stay inside the app.
 * Plain Node (no Electron) so every rule is unit-tested: test/shell/urls.test.ts.
 */
import { isTrustedSender } from '../core/security'

/** Longest URL we hand to the OS; anything longer is more likely an attack than a link. */
const MAX_URL_LENGTH = 2048

/**
 * The normalized form of `url` if it is safe to open in the user's browser, else null.
 *
 * Safe means: a string that parses as an absolute `https:` URL with a host and no user name or
 * password, written out in full (`https://host…`, no backslashes), with no whitespace or control
 * characters (the URL parser silently strips or tolerates those, so what we vetted and what the OS
 * receives could differ). Everything else —
 * `http:`, `javascript:`, `file:`, `data:`, `blob:`, custom schemes, relative URLs — is refused.
 * Open the returned string, never the input, so the OS gets exactly what was checked.
 */
export function safeExternalUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length === 0 || url.length > MAX_URL_LENGTH) return null
  // C0 controls, space, DEL and other Unicode white space (the parser drops tabs and newlines).
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(url))
    return null
  // Written out as https://host…: the parser would also accept "https:host", "https:///host" or
  // backslashes for slashes, and we never want to guess which host a sloppy link meant.
  if (!/^https:\/\/[^/?#]/i.test(url) || url.includes('\\')) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.protocol !== 'https:') return null
  if (parsed.username !== '' || parsed.password !== '') return null
  if (parsed.hostname === '') return null
  return parsed.href
}

/** True if `url` may be opened in the user's browser (see safeExternalUrl). */
export function isSafeExternalUrl(url: unknown): boolean {
  return safeExternalUrl(url) !== null
}

/**
 * True if `url` is the app's own page: same origin as `appUrl` when the app is served over
 * http(s) (the dev server), or the very same file when it is loaded from disk (file: URLs all
 * share the opaque origin "null", so the origin alone proves nothing). Query and hash may differ.
 * The same rule that decides which frames may call IPC (core/security.ts), so there is one
 * definition of "the app's page".
 */
export function isAppNavigation(url: unknown, appUrl: string): boolean {
  if (typeof url !== 'string') return false
  try {
    return isTrustedSender(url, appUrl)
  } catch {
    return false // e.g. a malformed %-escape in a file: path
  }
}

export type NavigationDecision = 'allow' | 'open-external' | 'deny'

/**
 * What the shell does with a navigation or window.open request from the renderer:
 * stay on the app's own page, hand a safe https link to the OS browser, or refuse.
 * `allowInApp: false` (window.open) never opens a second app window.
 */
export function decideNavigation(
  url: unknown,
  appUrl: string,
  { allowInApp }: { allowInApp: boolean },
): NavigationDecision {
  if (allowInApp && isAppNavigation(url, appUrl)) return 'allow'
  if (isSafeExternalUrl(url)) return 'open-external'
  return 'deny'
}
