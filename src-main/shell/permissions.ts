/**
 * Which web permissions the renderer gets: none, except writing plain text to the clipboard
 * from the app's own page. Camera, microphone, geolocation, notifications (main shows native
 * notifications itself), MIDI, HID, serial, USB, fullscreen, pointer lock, openExternal, …: denied.
 */
import { isAppNavigation } from './urls'

/** Permissions the app's own page may use. Everything not listed is denied. */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

export interface PermissionDetails {
  /** The URL (request handler) or origin (check handler) asking. */
  requestingUrl?: string | null
  /** The app's own page (the file: URL of index.html, or the dev server URL). */
  appUrl: string
  /** Only the top frame of the app is trusted; the app has no iframes. */
  isMainFrame?: boolean
}

export function allowPermission(permission: string, details: PermissionDetails): boolean {
  if (!ALLOWED_PERMISSIONS.has(permission)) return false
  if (details.isMainFrame === false) return false
  const from = details.requestingUrl
  if (!from) return false
  return isAppNavigation(from, details.appUrl) || sameFileOrigin(from, details.appUrl)
}

/**
 * The permission *check* handler gets an origin, not a URL; for a page loaded from disk that is
 * "file://" (or "null"), which cannot be matched to the app's file, so accept the file origin only
 * when the app itself is a file: page. The main frame is still required.
 */
function sameFileOrigin(origin: string, appUrl: string): boolean {
  if (!appUrl.startsWith('file:')) return false
  return origin === 'file://' || origin === 'file:///'
}
