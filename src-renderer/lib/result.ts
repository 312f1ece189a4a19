import { wordCoded } from './coded'
import type { BridgeError, Result } from './types'

/** Awaits a bridge call; a thrown error (a broken transport) becomes an `{ok:false}` like any other. */
export async function settle<T>(p: Promise<Result<T>>): Promise<Result<T>> {
  try {
    const r = await p
    if (r && typeof r === 'object' && 'ok' in r) return r
    return {
      ok: false,
      error: { code: 'bad_response', message: 'The app answered with something unexpected.' },
    }
  } catch (e) {
    return {
      ok: false,
      error: { code: 'bridge_failed', message: e instanceof Error ? e.message : String(e) },
    }
  }
}

/** An error's text in the language in use (a coded one worded now, in case the language changed). */
export function errorText(e: BridgeError): string {
  return (e.coded ? wordCoded(e.coded) : e.message) || e.code
}
