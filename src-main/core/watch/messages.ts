/**
 * Plain-words messages for folder status and unreadable files: what a person sees in the app.
 * A folder's status is a `Coded` (worded in the person's language by the renderer, issue 34).
 */
import { coded } from '../../../contract/coded'
import { FOLDER_STATES as S } from '../../../contract/main-states'
import type { Coded } from '../../../contract/message'

export const PERMISSION_CODES: ReadonlySet<string> = new Set(['EACCES', 'EPERM'])
/** Watch-resource exhaustion: fall back to polling. */
export const FALLBACK_CODES: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'ENOSPC'])

export function folderNotFound(root: string): Coded {
  return coded(S.notFound, { path: root })
}

export function folderNotAFolder(root: string): Coded {
  return coded(S.notAFolder, { path: root })
}

export function folderDenied(root: string, code: string): Coded {
  return coded(S.denied, { path: root, code })
}

export function folderUnavailable(root: string, code: string): Coded {
  return coded(S.unavailable, { path: root, code })
}

/** Sub-folders that could not be read; the rest of the folder is watched. */
export function subfoldersUnreadable(dirs: readonly string[], code: string): Coded {
  const params = { path: dirs[0] ?? '?', more: Math.max(0, dirs.length - 1), code }
  return coded(PERMISSION_CODES.has(code) ? S.subfoldersDenied : S.subfoldersUnreadable, params)
}

export function switchedToPolling(code: string): Coded {
  return coded(S.switchedToPolling, { code })
}

export function pollingConfigured(intervalMs: number): Coded {
  const every = intervalMs % 1000 === 0 ? `${intervalMs / 1000} s` : `${intervalMs} ms`
  return coded(S.pollingConfigured, { every })
}

export function watcherProblem(code: string, message: string): Coded {
  return coded(S.watcherProblem, { code, detail: message })
}

export function unreadableReason(code: string, message: string): string {
  if (PERMISSION_CODES.has(code)) {
    return `Permission denied (${code}): Bookdrop can't read this file. Give your user read access and it will be picked up.`
  }
  if (code === 'EBUSY') return 'The file is locked by another program (EBUSY).'
  if (code === 'EIO') return 'The disk reported an input/output error (EIO) reading this file.'
  return `Bookdrop can't read this file (${code}): ${message}`
}

function seconds(ms: number): string {
  const s = Math.round(ms / 1000)
  return s >= 120 ? `${Math.round(s / 60)} min` : `${s} s`
}

/** The note of a file taken although its format's end marker was missing. */
export function unfinishedNote(missing: string, quietMs: number): string {
  return `Sent although it looked unfinished (${missing} was missing): it had not changed for ${seconds(quietMs)}.`
}

/** The note of a file taken although a program still held it open for writing. */
export function stillOpenNote(quietMs: number): string {
  return `Sent although another program still had it open for writing: it had not changed for ${seconds(quietMs)}.`
}
