/** The calls of the connection (issue 22): proxy, extra trusted certificates, Test connection. */
import { z } from 'zod'
import type { ConnectionReport, ConnectionSettings } from '../types'
import { none } from './shared'

export const CONNECTION_CALLS = {
  getConnection: none,
  setConnection: z
    .object({
      proxyMode: z.enum(['system', 'manual', 'none']),
      /** http(s)://host:port; required with proxyMode manual. */
      proxyUrl: z.string().trim().max(2000).nullable().optional(),
      /** Extra trusted certificates, PEM text (null: none). Checked by main. */
      caPem: z.string().max(1_000_000).nullable().optional(),
    })
    .strict(),
  /** The proxy's user name and password, kept in the keychain; an empty user name removes them. */
  setProxyCredentials: z.object({ username: z.string().max(256), password: z.string().max(1024) }).strict(),
  /** Tries the active profile's base URL once (GET /auth/validate) and says what it found. */
  testConnection: none,
} as const

export interface ConnectionCalls {
  getConnection: ConnectionSettings
  setConnection: ConnectionSettings
  setProxyCredentials: ConnectionSettings
  testConnection: ConnectionReport
}
