/**
 * A peek at one version of a file the sampler (stability.ts) waits for: it is opened where it is
 * checked to lie inside the folder (inside.ts), its first and last bytes are read, and the content
 * check (intake/inspect.ts) says whether its format's end marker is there. A link to a file
 * outside the folder is never read.
 */
import { constants as fsConstants } from 'node:fs'
import path from 'node:path'
import { fileKind } from '../../../schemas/routes'
import { HEAD_BYTES, type InspectFn, tailBytesFor } from '../intake/inspect'
import { openInside, readWindows } from './inside'
import type { IoResult, WatchIo } from './io'

/** What a peek at a version of a file found (see peekVersion). */
export type Peek =
  | {
      kind: 'ok'
      realPath: string
      size: number
      mtimeMs: number
      complete: 'yes' | 'no' | 'unknown'
      missing: string | null
    }
  | { kind: 'outside'; realPath: string }
  | { kind: 'not_file' }
  | { kind: 'changed' }
  | { kind: 'error'; code: string; message: string }

/** What a peek needs: the watcher's fs calls, the content check, the folder's real path. */
export interface PeekHost {
  readonly io: WatchIo
  readonly inspect: InspectFn
  realRoot(): string
}

/** Can the file be read (R_OK)? */
export function readable(io: WatchIo, filePath: string, signal: AbortSignal): Promise<IoResult<void>> {
  return io.access(filePath, fsConstants.R_OK, signal)
}

/** Opens the version where it is checked to lie inside the folder, and reads its two windows. */
export async function peekVersion(filePath: string, host: PeekHost, signal: AbortSignal): Promise<Peek> {
  const access = await readable(host.io, filePath, signal)
  if (!access.ok) return { kind: 'error', code: access.code, message: access.message }
  const r = await host.io.run(() => peekNow(filePath, host), signal)
  return r.ok ? r.value : { kind: 'error', code: r.code, message: r.message }
}

async function peekNow(filePath: string, host: PeekHost): Promise<Peek> {
  const opened = await openInside(filePath, host.realRoot())
  if (!opened.ok) {
    if (opened.why === 'outside') return { kind: 'outside', realPath: opened.realPath }
    if (opened.why === 'not_file') return { kind: 'not_file' }
    if (opened.why === 'changed') return { kind: 'changed' }
    return { kind: 'error', code: opened.code, message: opened.message }
  }
  try {
    const kind = fileKind(path.basename(filePath))
    const size = opened.stat.size
    const { head, tail } = await readWindows(opened.handle, size, HEAD_BYTES, tailBytesFor(kind))
    const v = await host.inspect({ kind, size, head, tail })
    return {
      kind: 'ok',
      realPath: opened.realPath,
      size: opened.stat.size,
      mtimeMs: opened.stat.mtimeMs,
      complete: v.matches ? v.complete : 'unknown',
      missing: v.missing,
    }
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code
    return { kind: 'error', code: typeof code === 'string' ? code : 'EIO', message: (e as Error).message }
  } finally {
    await opened.handle.close().catch(() => undefined)
  }
}
