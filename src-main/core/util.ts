/**
 * Main's small helpers, in one place: what several rooms of the main process need and none owns.
 * Plain functions with no state; nothing here touches the engine, the store or a secret.
 */
import { extname, join } from 'node:path'

/** The errno code of a Node error (`ENOENT`, `EACCES`…), or undefined for anything else. */
export function errnoCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : undefined
}

/** True for a plain object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/**
 * The names to try for a file that must not replace another: "name.ext", then "name (2).ext",
 * "name (3).ext"… up to `limit` names.
 */
export function* numberedNames(name: string, limit = 10_000): Generator<string> {
  const ext = extname(name)
  const stem = ext ? name.slice(0, -ext.length) : name
  yield name
  for (let i = 2; i <= limit; i++) yield `${stem} (${i})${ext}`
}

/** Every name of a `createAtFreeName` list was taken. */
export class NoFreeNameError extends Error {
  constructor(readonly tried: number) {
    super(`there are ${tried.toLocaleString('en')} files of that name already`)
  }
}

/**
 * Creates a new file in `dir` under the first of `names` that is free at the moment `create` takes
 * it, and returns its path: `create` must fail with EEXIST where the name is taken (an exclusive
 * open, `link()`, COPYFILE_EXCL), so two writers can never take one name and nothing is replaced.
 * Any other failure is thrown; when every name is taken, `NoFreeNameError`.
 */
export async function createAtFreeName(
  dir: string,
  names: Iterable<string>,
  create: (path: string) => Promise<void>,
): Promise<string> {
  let tried = 0
  for (const n of names) {
    tried++
    const path = join(dir, n)
    try {
      await create(path)
      return path
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e
    }
  }
  throw new NoFreeNameError(tried)
}

/** A local calendar day as `YYYY-MM-DD` (the name of a day's folder). */
export function localDay(d: Date = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

const KB = 1024
const MB = 1024 * KB

/** A size as people read it in a message: "512 bytes", "12 KB", "1.5 MB". */
export function sizeText(bytes: number): string {
  const round = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1))
  if (bytes >= MB) return `${round(Math.round((bytes / MB) * 10) / 10)} MB`
  if (bytes >= KB) return `${round(Math.round((bytes / KB) * 10) / 10)} KB`
  return `${bytes} bytes`
}

const REDACTED = '[redacted]'

/** Removes every secret (at least 4 characters long, so a stray "a" is never blanked out) from text. */
export function redact(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join(REDACTED)
  }
  return out
}
