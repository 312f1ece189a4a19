/**
 * The connection room (issue 22): how requests reach the API. The proxy (the system's: the OS's
 * settings and PAC file on the desktop, HTTPS_PROXY elsewhere; a manual one; or none), the
 * proxy's user name and password (the password in the keychain only), extra trusted certificates
 * (PEM, for a corporate TLS inspection), and "Test connection" for the active profile.
 *
 * A change takes effect at once: the connections made under the old settings are closed, and
 * whatever waited for the path to the server (a certificate not trusted, a proxy asking for a
 * password) is tried again now.
 */
import type { Calls, ConnectionSettings, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import { CertificateFileError, type ProxyCredentials, type ProxySetting, checkProxyUrl, readCaPem } from '../api/network'
import type { AppContext } from './context'
import type { Room } from './room'

/** The keychain account of the proxy's user name and password (JSON). */
export const PROXY_CREDENTIALS_ACCOUNT = 'proxy-credentials'

/** What is saved (in the engine's settings table; never a password). */
export interface SavedConnection {
  proxyMode: 'system' | 'manual' | 'none'
  proxyUrl: string | null
  proxyUser: string | null
  caPem: string | null
}

/** The saved connection settings; a damaged record falls back to the system's proxy and no extra certificate. */
export function readConnection(ctx: AppContext): SavedConnection {
  const raw = ctx.engine.savedConnection()
  const mode = raw.proxyMode === 'manual' || raw.proxyMode === 'none' ? raw.proxyMode : 'system'
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null)
  let proxyUrl = text(raw.proxyUrl)
  let caPem = text(raw.caPem)
  try {
    if (proxyUrl) proxyUrl = checkProxyUrl(proxyUrl)
  } catch {
    proxyUrl = null
  }
  try {
    if (caPem) readCaPem(caPem)
  } catch {
    caPem = null
  }
  return { proxyMode: mode === 'manual' && !proxyUrl ? 'system' : mode, proxyUrl, proxyUser: text(raw.proxyUser), caPem }
}

function proxySetting(s: SavedConnection): ProxySetting {
  if (s.proxyMode === 'manual' && s.proxyUrl) return { mode: 'manual', url: s.proxyUrl }
  return s.proxyMode === 'none' ? { mode: 'none' } : { mode: 'system' }
}

/** Puts the saved settings in force (at start, and after each change). */
export function applyConnection(ctx: AppContext, s: SavedConnection = readConnection(ctx)): void {
  ctx.network.update({ proxy: proxySetting(s), extraCaPem: s.caPem })
}

/** The proxy credentials from the keychain, for the network (./network.ts asks per proxy). */
export async function proxyCredentials(ctx: AppContext): Promise<ProxyCredentials | null> {
  if (!ctx.secretStore) return null
  const raw = await ctx.secretStore.get(PROXY_CREDENTIALS_ACCOUNT).catch(() => null)
  if (!raw) return null
  try {
    const v = JSON.parse(raw) as { username?: unknown; password?: unknown }
    return typeof v.username === 'string' && typeof v.password === 'string' && v.username !== ''
      ? { username: v.username, password: v.password }
      : null
  } catch {
    return null
  }
}

async function view(ctx: AppContext, s: SavedConnection = readConnection(ctx)): Promise<ConnectionSettings> {
  const creds = await proxyCredentials(ctx)
  return {
    proxyMode: s.proxyMode,
    proxyUrl: s.proxyUrl,
    proxyUser: creds?.username ?? null,
    proxyPasswordSaved: creds !== null,
    extraCertificates: s.caPem ? readCaPem(s.caPem).subjects : [],
  }
}

/** The settings changed: close old connections, and what waited for the path goes now. */
function changed(ctx: AppContext): void {
  ctx.network.reset()
  ctx.engine.networkChanged(true)
  ctx.emitSession()
}

export type ConnectionRoom = Room<'getConnection' | 'setConnection' | 'setProxyCredentials' | 'testConnection'>

export function connectionRoom(ctx: AppContext): ConnectionRoom {
  return {
    async getConnection(): Promise<Calls['getConnection']> {
      return view(ctx)
    },

    async setConnection(req: ParsedReq<'setConnection'>): Promise<Calls['setConnection']> {
      const current = readConnection(ctx)
      const next: SavedConnection = { ...current, proxyMode: req.proxyMode }
      if (req.proxyUrl !== undefined) next.proxyUrl = req.proxyUrl && req.proxyUrl.trim() ? req.proxyUrl : null
      if (next.proxyMode === 'manual') {
        if (!next.proxyUrl) {
          throw new AppError('invalid_request', 'Enter the proxy address, such as http://proxy.example.com:3128.', {
            proxyUrl: 'enter the proxy address',
          })
        }
        try {
          next.proxyUrl = checkProxyUrl(next.proxyUrl)
        } catch (e) {
          throw new AppError('invalid_request', (e as Error).message, { proxyUrl: (e as Error).message })
        }
      }
      if (req.caPem !== undefined) {
        next.caPem = req.caPem && req.caPem.trim() ? req.caPem : null
        if (next.caPem) {
          try {
            readCaPem(next.caPem, 'The certificate text')
          } catch (e) {
            const message = e instanceof CertificateFileError ? e.message : 'The certificate text cannot be read.'
            throw new AppError('invalid_request', message, { caPem: message })
          }
        }
      }
      ctx.engine.saveConnection({ proxyMode: next.proxyMode, proxyUrl: next.proxyUrl, proxyUser: next.proxyUser, caPem: next.caPem })
      applyConnection(ctx, next)
      changed(ctx)
      return view(ctx, next)
    },

    async setProxyCredentials(req: ParsedReq<'setProxyCredentials'>): Promise<Calls['setProxyCredentials']> {
      if (!ctx.secretStore) throw new AppError('keychain_unavailable', 'There is no keychain to keep the proxy password in.')
      const username = req.username.trim()
      if (username === '') {
        await ctx.secretStore.delete(PROXY_CREDENTIALS_ACCOUNT)
      } else {
        const control = (t: string) => [...t].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
        if (control(username) || control(req.password)) {
          throw new AppError('invalid_request', 'The user name and password cannot contain control characters.', {
            username: 'no control characters',
          })
        }
        await ctx.secretStore.set(PROXY_CREDENTIALS_ACCOUNT, JSON.stringify({ username, password: req.password }))
      }
      changed(ctx)
      return view(ctx)
    },

    async testConnection(): Promise<Calls['testConnection']> {
      const entry = ctx.activeEntry()
      const client = await ctx.clientOf(entry.profile.id)
      const report = await client.checkConnection()
      return { ...report, message: ctx.redact(report.message) }
    },
  }
}
