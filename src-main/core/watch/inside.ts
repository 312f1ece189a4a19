/**
 * "A file is read only where the user put it" (design.md §1), checked where the file is opened.
 *
 * `openInside` opens the path (following links, as any reader would), then asks what it opened:
 * on Linux the kernel's own answer for the open descriptor (`/proc/self/fd/N`, so a link swapped
 * after the open cannot change it); elsewhere the path's real path, accepted only when it names the
 * very file opened (same device and inode: a link swapped in between fails the comparison). The
 * file is read only when that real path lies inside the real path of the watched folder it was
 * found in. A file given without a folder (a drop, the file picker) keeps its own rule
 * (user-paths.ts) and is opened as it is.
 *
 * The descriptor is opened non-blocking, so a FIFO swapped in for a file never hangs a thread.
 */
import { constants as fsConstants, readlinkSync } from 'node:fs'
import type { Stats } from 'node:fs'
import { type FileHandle, open, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import { decodeFsName, fsPath } from '../names'
import { errnoCode } from '../util'

const CASE_INSENSITIVE = process.platform === 'win32' || process.platform === 'darwin'
/** Linux: the kernel names the file behind a descriptor. */
const PROC_FD = process.platform === 'linux' ? '/proc/self/fd' : null

/**
 * How openInside opens a file and learns what it opened. The defaults are the system's; tests run
 * the fallback used off Linux on Linux (`procFd: null`) and meet errors a disk or the process gives.
 */
export interface InsideFs {
  /** Where the kernel names a descriptor (`/proc/self/fd` on Linux); null: compare device and inode. */
  procFd?: string | null
  open?: (path: string | Buffer, flags: number) => Promise<FileHandle>
}

export type OpenedInside =
  | { ok: true; handle: FileHandle; stat: Stats; realPath: string }
  | { ok: false; why: 'outside'; realPath: string; message: string }
  | { ok: false; why: 'not_file'; message: string }
  | { ok: false; why: 'changed'; message: string }
  | { ok: false; why: 'error'; code: string; message: string }

/** True when `child` is `root` or lies below it (real paths; case folded where the system ignores case). */
export function isInsideReal(child: string, root: string): boolean {
  const c = CASE_INSENSITIVE ? child.toLowerCase() : child
  const r = CASE_INSENSITIVE ? root.toLowerCase() : root
  if (c === r) return true
  return c.startsWith(r.endsWith(path.sep) ? r : r + path.sep)
}

/** The real path (every link resolved) of a path string, as a path string (raw bytes kept). */
export async function realPathOf(p: string): Promise<string> {
  const raw = await realpath(fsPath(p), { encoding: 'buffer' })
  return decodeFsName(raw)
}

/**
 * What the descriptor opened is, by the kernel's word (Linux), or null. Read synchronously: procfs
 * answers from memory (it never waits on a disk or a network share), and a round trip through the
 * thread pool for it cost more than the answer (three per file: peek, intake, send).
 */
function pathOfDescriptor(handle: FileHandle, procFd: string | null): string | null {
  if (!procFd) return null
  try {
    const raw = readlinkSync(`${procFd}/${handle.fd}`, { encoding: 'buffer' })
    const s = decodeFsName(raw)
    // An unlinked file is named "<path> (deleted)": it is gone from the folder.
    return s.endsWith(' (deleted)') || !path.isAbsolute(s) ? '' : s
  } catch {
    return null
  }
}

/**
 * Opens `p` for reading and checks it: a regular file whose real path lies inside `realRoot` (the
 * real path of the watched folder it was found in; null for a file a person gave, which has no
 * folder). On success the caller owns `handle` and must close it.
 */
export async function openInside(p: string, realRoot: string | null, fs: InsideFs = {}): Promise<OpenedInside> {
  let handle: FileHandle
  try {
    handle = await (fs.open ?? open)(fsPath(p), fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0))
  } catch (e) {
    const code = errnoCode(e) ?? 'EIO'
    return { ok: false, why: 'error', code, message: (e as Error).message }
  }
  const fail = async (r: OpenedInside): Promise<OpenedInside> => {
    await handle.close().catch(() => undefined)
    return r
  }
  try {
    const st = await handle.stat()
    if (!st.isFile()) return await fail({ ok: false, why: 'not_file', message: 'not a regular file' })
    let real = pathOfDescriptor(handle, fs.procFd === undefined ? PROC_FD : fs.procFd)
    if (real === '') return await fail({ ok: false, why: 'error', code: 'ENOENT', message: 'the file was deleted' })
    if (real === null) {
      // No kernel answer: the real path of the path, if it still names the file opened.
      real = await realPathOf(p)
      const again = await stat(fsPath(real))
      if (again.dev !== st.dev || again.ino !== st.ino) {
        return await fail({ ok: false, why: 'changed', message: 'the path changed while it was being opened' })
      }
    }
    if (realRoot !== null && !isInsideReal(real, realRoot)) {
      return await fail({
        ok: false,
        why: 'outside',
        realPath: real,
        message: 'a link to a file outside the watched folder',
      })
    }
    return { ok: true, handle, stat: st, realPath: real }
  } catch (e) {
    return fail({ ok: false, why: 'error', code: errnoCode(e) ?? 'EIO', message: (e as Error).message })
  }
}

/** The first `headBytes` and last `tailBytes` of an open file of `size` bytes (bounded reads). */
export async function readWindows(
  handle: FileHandle,
  size: number,
  headBytes: number,
  tailBytes: number,
): Promise<{ head: Uint8Array; tail: Uint8Array }> {
  const readAt = async (position: number, length: number): Promise<Uint8Array> => {
    if (length <= 0) return new Uint8Array(0)
    const buf = Buffer.alloc(length)
    let got = 0
    while (got < length) {
      const { bytesRead } = await handle.read(buf, got, length - got, position + got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    return buf.subarray(0, got)
  }
  const h = Math.min(size, headBytes)
  const t = Math.min(size, tailBytes)
  const head = await readAt(0, h)
  const tail = t <= h && size <= headBytes ? head.subarray(Math.max(0, head.length - t)) : await readAt(size - t, t)
  return { head, tail }
}
