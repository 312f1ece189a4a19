/**
 * What every emulator route test shares (business-helpers.ts and partner-helpers.ts re-export it):
 * one call over real HTTP, the success envelope's data, and an emulator started for the calling
 * file or describe block.
 */
import { afterAll, beforeAll } from 'vitest'
import { z } from 'zod'
import { successEnvelope } from '../../schemas'
import type { Sandbox } from '../../sandbox/index'

export interface Res {
  status: number
  headers: Headers
  text: string
  body: unknown
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'

export interface CallOptions {
  key?: string
  keyHeader?: string
  body?: unknown
  idem?: string
}

export async function call(sb: Sandbox, method: Method, path: string, opts: CallOptions = {}): Promise<Res> {
  const headers: Record<string, string> = {}
  if (opts.key !== undefined) headers[opts.keyHeader ?? 'X-API-Key'] = opts.key
  if (opts.idem !== undefined) headers['Idempotency-Key'] = opts.idem
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: res.status, headers: res.headers, text, body }
}

/** The `data` of a 200 success envelope, checked against a shared schema. */
export function dataOf<T extends z.ZodType>(schema: T, res: Res): z.output<T> {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status}: ${res.text}`)
  return schema.parse(successEnvelope(z.unknown()).parse(res.body).data)
}

/**
 * An emulator started before the calling file's (or describe block's) tests and stopped after them.
 * The returned handle stands for it: read it only inside tests and hooks.
 */
export function useSandbox(start: () => Promise<Sandbox>): Sandbox {
  let current: Sandbox | undefined
  beforeAll(async () => {
    current = await start()
  })
  afterAll(async () => {
    await current?.stop()
  })
  return new Proxy({} as Sandbox, {
    get(_, key) {
      if (!current) throw new Error('the emulator is not started yet: use it inside a test or hook')
      const value: unknown = Reflect.get(current, key)
      return typeof value === 'function' ? value.bind(current) : value
    },
  })
}
