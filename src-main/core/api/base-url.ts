/**
 * Where requests go (api-spec.md Part 9): production and sandbox bases come from
 * ENVIRONMENT_BASE_URLS; a custom base (the local emulator, a proxy) must be https, except on the
 * loopback interface where plain http is fine. Each base already ends in the version prefix (/v1);
 * paths such as /invoices are appended to it.
 */
import { ENVIRONMENT_BASE_URLS, type Environment } from '../../../schemas/assumptions'
import { ApiError, CLIENT_ERROR_CODES } from './errors'

export type EnvironmentOption =
  { environment: 'production' | 'sandbox'; baseUrl?: undefined } | { environment: 'custom'; baseUrl: string }

/** True for localhost, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address), as URL.hostname writes them. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '')
  if (h === 'localhost') return true
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true
  // WHATWG URL normalises 127.1 and 0x7f.0.0.1 to dotted decimal, so a plain pattern is enough.
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true
  // ::ffff:127.x.y.z, written by URL as ::ffff:7fxx:yyzz
  if (/^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(h)) return true
  return false
}

function invalid(message: string): ApiError {
  return new ApiError({ status: 0, errorCode: CLIENT_ERROR_CODES.invalidBaseUrl, message, retryable: false })
}

/**
 * The base URL for an environment, without a trailing slash. Throws an ApiError with code
 * `invalid_base_url` when a custom base is not a usable URL or is plain http off the loopback.
 */
export function resolveBaseUrl(opt: EnvironmentOption): string {
  const env: Environment = opt.environment
  if (env === 'production' || env === 'sandbox') return ENVIRONMENT_BASE_URLS[env].replace(/\/+$/, '')
  if (env !== 'custom') {
    throw invalid(`Unknown environment "${String(env)}": use production, sandbox or custom.`)
  }
  const raw = (opt.baseUrl ?? '').trim()
  if (!raw) throw invalid('A custom environment needs a base URL, such as https://api.example.com/v1.')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw invalid(
      `The base URL "${raw}" is not a valid URL; write it in full, such as https://api.example.com/v1.`,
    )
  }
  // Never echo credentials embedded in the URL.
  if (url.username || url.password) {
    throw invalid('The base URL must not contain a user name or password; the API key is sent in a header.')
  }
  const shown = `${url.protocol}//${url.host}${url.pathname}`
  if (url.search || url.hash) {
    throw invalid(`The base URL ${shown} must not have a query (?...) or fragment (#...).`)
  }
  if (url.protocol === 'https:') return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
  if (url.protocol === 'http:') {
    if (isLoopbackHost(url.hostname)) return `${url.origin}${url.pathname}`.replace(/\/+$/, '')
    throw invalid(
      `The base URL ${shown} uses plain http, which would send the API key unencrypted. ` +
        'Use https://, or http:// only on this computer (localhost, 127.0.0.1 or ::1).',
    )
  }
  throw invalid(`The base URL ${shown} must start with https:// (or http:// on localhost).`)
}
