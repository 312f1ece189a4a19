/**
 * The path to the server's errors (design.md §1, issue 22): what came instead of the API's answer
 * (a web page, an empty or foreign body: `describeBody`), and why no answer came at all (a timeout,
 * no network, a proxy's refusal, an untrusted certificate: `noAnswer`), each as plain words that
 * name what was seen. The transport (transport.ts) builds the ApiError from them.
 */
import type { TLSSocket } from 'node:tls'
import { type ApiErrorInit, CLIENT_ERROR_CODES, type ConnectionProblem } from './errors'
import { http } from './network/node-http'
import {
  BadEncoding,
  HttpAborted,
  type HttpResponse,
  HttpTimeout,
  ProxyRefused,
  ResponseTooLarge,
} from './http'
import { type Route, nameOf } from './network'
import type { Method } from './client-types'
import { errnoCode, isRecord, sizeText } from '../util'

/** No network at all: the OS says there is no route, or no resolver answers. */
const OFFLINE_CODES = new Set(['ENETUNREACH', 'ENETDOWN', 'EAI_AGAIN'])
/** OpenSSL's and Node's codes for a certificate this computer does not accept. */
const CERT_CODE = /CERT|ISSUER|SELF_SIGNED|LEAF_SIGNATURE|HOSTNAME_MISMATCH|INVALID_CA/

const HOW_TO_TRUST =
  "add that authority's certificate (Settings → Connection, or --ca-file), or ask whoever runs this network"

/** A short, plain description of a body that is not the API's (for a row's reason and the status bar). */
export function describeBody(
  status: number,
  headers: HttpResponse['headers'],
  text: string,
  json: unknown,
): string {
  const { what, type } = bodyKind(headers, text, json)
  return type === null ? `${what} (HTTP ${status})` : `${what} (${type ? `${type}, ` : ''}HTTP ${status})`
}

/** What a body is, without its status: "a web page ("…")", "an empty answer" … (type: of a body that is not JSON). */
function bodyKind(headers: HttpResponse['headers'], text: string, json: unknown): { what: string; type: string | null } {
  const type = String(headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase()
  const trimmed = text.trimStart()
  if (trimmed === '') return { what: 'an empty answer', type: null }
  if (type === 'text/html' || type === 'application/xhtml+xml' || /^<[a-z!]/i.test(trimmed)) {
    const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim()
    return { what: `a web page${title ? ` ("${title.slice(0, 80)}")` : ''}`, type: null }
  }
  if (json !== undefined) {
    const msg = isRecord(json) && typeof json.message === 'string' ? ` ("${json.message.slice(0, 80)}")` : ''
    return { what: `JSON that is not the API's answer${msg}`, type: null }
  }
  return { what: 'an answer that is not JSON', type }
}

/**
 * A 5xx or a 413 that is not in the API's envelope (design.md §1, the status code speaks first):
 * "the server answered 503 Service Unavailable (a web page ("Maintenance"), not the API)".
 */
export function describeStatusPage(
  status: number,
  statusText: string,
  headers: HttpResponse['headers'],
  text: string,
  json: unknown,
): string {
  const { what, type } = bodyKind(headers, text, json)
  const reason = statusText.trim() || http.STATUS_CODES[status] || ''
  const notApi = what.includes('not the API') ? '' : ', not the API'
  return `the server answered ${status}${reason ? ` ${reason}` : ''} (${what}${type ? `, ${type}` : ''}${notApi})`
}

/** An exchange that brought no answer to read, as transport.ts saw it. */
export interface FailedExchange {
  method: Method
  path: string
  idempotencyKey: string | undefined
  url: URL
  route: Route
  timeoutMs: number
  /** Where the time limit is set (named in the timeout's message). */
  timeoutHint: string
}

/**
 * The ApiError (its fields) of an exchange that brought no answer to read: `e` is what http.ts
 * threw. The caller builds it with Transport.error, which redacts the message; `redact` is for
 * the cause.
 */
export async function noAnswer(
  e: unknown,
  x: FailedExchange,
  redact: (text: string) => string,
): Promise<ApiErrorInit> {
  const { method, path, idempotencyKey, url, route, timeoutMs } = x
  const base = { method, path, idempotencyKey }
  const host = url.host
  const via = route.proxy ? ` through the proxy ${route.proxy}` : ''
  if (e instanceof HttpTimeout) {
    return {
      ...base,
      status: 0,
      errorCode: CLIENT_ERROR_CODES.timeout,
      message: `${method} ${path}: no complete answer from ${host}${via} within ${timeoutMs / 1000} s (${x.timeoutHint}).`,
      retryable: true,
      connection: 'unreachable',
    }
  }
  if (e instanceof HttpAborted) {
    return {
      ...base,
      status: 0,
      errorCode: CLIENT_ERROR_CODES.aborted,
      message: `${method} ${path} was cancelled.`,
      retryable: false,
    }
  }
  if (e instanceof ResponseTooLarge || e instanceof BadEncoding) {
    // An answer came (its status is known) that could not be read: worth trying again.
    const unread = { ...base, status: e.status, retryable: true }
    if (e instanceof BadEncoding) {
      return {
        ...unread,
        errorCode: CLIENT_ERROR_CODES.notApi,
        message: `${method} ${path}: an answer in an encoding Bookdrop cannot read (${e.encoding}, HTTP ${e.status}) came instead of the API's answer.`,
        connection: 'not_api',
      }
    }
    return {
      ...unread,
      errorCode: CLIENT_ERROR_CODES.tooLarge,
      message:
        `The server's answer to ${method} ${path} is larger than ${sizeText(e.limit)}, far more than any answer of ` +
        'the API: Bookdrop stopped reading it. This is a problem of the server; tell whoever runs it if it goes on.',
    }
  }
  if (e instanceof ProxyRefused) {
    if (e.status === 407) {
      return {
        ...base,
        status: 0,
        errorCode: CLIENT_ERROR_CODES.proxyAuth,
        message:
          `The proxy ${route.proxy ?? ''} asks for a user name and password (407): enter them in Settings → Connection ` +
          '(headless: in the proxy address, http://user:password@host:port).',
        retryable: false,
        connection: 'not_api',
        configuration: true,
      }
    }
    return {
      ...base,
      status: 0,
      errorCode: CLIENT_ERROR_CODES.proxy,
      message: `The proxy ${route.proxy ?? ''} could not open a connection to ${host} (it answered ${e.status}).`,
      retryable: true,
      connection: 'unreachable',
    }
  }
  const code = errnoCode(e)
  if (code && CERT_CODE.test(code)) {
    const peer = await presentedCertificate(url, route)
    const issuer = peer?.issuer ?? 'an authority Bookdrop could not read'
    let message: string
    if (code === 'CERT_HAS_EXPIRED') {
      message = `The certificate of ${host} expired${peer?.validTo ? ` on ${peer.validTo}` : ''}: the server must renew it (or this computer's clock is wrong).`
    } else if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
      message = `The certificate presented for ${host} is for another name${peer?.subject ? ` (${peer.subject})` : ''}, signed by ${issuer}: a Wi-Fi login page or a proxy in the way, or the wrong base URL?`
    } else {
      message = `The server's certificate is signed by ${issuer}, which this computer does not trust: ${HOW_TO_TRUST}.`
    }
    return {
      ...base,
      status: 0,
      errorCode: CLIENT_ERROR_CODES.certificate,
      message: `${message} (${code}${via})`,
      retryable: false,
      connection: 'not_api',
      configuration: true,
    }
  }
  const problem: ConnectionProblem = code && OFFLINE_CODES.has(code) ? 'offline' : 'unreachable'
  const detail = code ?? (e instanceof Error ? e.message : String(e))
  const what = route.proxy ? `the proxy ${route.proxy}` : host
  return {
    ...base,
    status: 0,
    errorCode: problem === 'offline' ? CLIENT_ERROR_CODES.offline : CLIENT_ERROR_CODES.network,
    message:
      problem === 'offline'
        ? `Could not reach ${what} (${detail}): this computer seems to be offline.`
        : `Could not reach ${what} (${detail}); check the connection and the base URL.`,
    retryable: true,
    connection: problem,
    cause: new Error(redact(`${code ? `${code}: ` : ''}${e instanceof Error ? e.message : String(e)}`)),
  }
}

/**
 * The certificate a server presents, read on a connection of its own that only shakes hands (no
 * request, no key sent) and accepts anything, so an error can name who signed it.
 */
export async function presentedCertificate(
  url: URL,
  route: Route | null,
): Promise<{ issuer: string; subject: string; validTo: string } | null> {
  if (!route || url.protocol !== 'https:') return null
  const agent = route.fresh() as unknown as {
    createConnection(o: object, cb: (err: Error | null, s?: TLSSocket) => void): TLSSocket | undefined
    destroy(): void
  }
  const isIp = /^[\d.]+$|:/.test(url.hostname)
  const options = {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 443),
    ...(isIp ? {} : { servername: url.hostname }),
    rejectUnauthorized: false,
  }
  try {
    const socket = await new Promise<TLSSocket>((resolve, reject) => {
      const s = agent.createConnection(options, (err, sock) => (err || !sock ? reject(err) : resolve(sock)))
      if (s) resolve(s)
    })
    return await new Promise((resolve) => {
      const done = (v: { issuer: string; subject: string; validTo: string } | null): void => {
        clearTimeout(timer)
        socket.destroy()
        resolve(v)
      }
      const timer = setTimeout(() => done(null), 10_000)
      const read = (): void => {
        const c = socket.getPeerCertificate()
        done(
          c && c.issuer
            ? {
                issuer: nameOf(c.issuer as unknown as Record<string, unknown>),
                subject: nameOf(c.subject as unknown as Record<string, unknown>),
                validTo: c.valid_to,
              }
            : null,
        )
      }
      socket.once('secureConnect', read)
      socket.once('error', () => done(null))
    })
  } catch {
    return null
  } finally {
    agent.destroy()
  }
}
