/**
 * The tolerant reader's primitives: text, identifiers and numbers from whatever the server sent,
 * the first of a field's names that carries a value, and a record that needs only its uuid.
 */
import { z } from 'zod'

export type Obj = Record<string, unknown>

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Text: a string as is, a finite number written out; anything else is null. */
export function text(v: unknown): string | null {
  if (typeof v === 'string') return v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return null
}

/** A non-empty identifier (a string, or a whole number written out); anything else is null. */
export function ident(v: unknown): string | null {
  const t = typeof v === 'number' && !Number.isInteger(v) ? null : text(v)
  return t !== null && t.trim() !== '' ? t.trim() : null
}

const NUMERIC = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

/** A number: a finite number, or text that is exactly one ("12.50"); anything else is null. */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && NUMERIC.test(v.trim())) {
    const n = Number(v.trim())
    return Number.isFinite(n) ? n : null
  }
  return null
}

/** The first of `names` that `o` carries with a value (not undefined, not null). */
export function pick(o: Obj, names: readonly string[]): unknown {
  for (const n of names) {
    const v = o[n]
    if (v !== undefined && v !== null) return v
  }
  return undefined
}

export const pickText = (o: Obj, names: readonly string[]) => text(pick(o, names))
export const pickNum = (o: Obj, names: readonly string[]) => num(pick(o, names))

/** The required identifier of a read, under `uuid` (or `id`), as text. */
const idField = z.union([z.string().trim().min(1), z.number().int()], {
  error: 'must be the identifier of the record (text)',
})

/** An object whose `uuid` (or, failing that, `id`) is present; every other field is read by `read`. */
export function withUuid<T>(read: (o: Obj, uuid: string) => T) {
  return z.preprocess(
    (v) => (isObject(v) && v.uuid === undefined && v.id !== undefined ? { ...v, uuid: v.id } : v),
    z
      .looseObject({ uuid: idField }, { error: 'must be an object (a record)' })
      .transform((o) => read(o, String(o.uuid).trim())),
  )
}

/** The objects of a list field; anything else (absent, not a list, non-object elements) is dropped. */
export function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObject) : []
}
