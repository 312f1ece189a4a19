/**
 * Plain-words messages for folder status and unreadable files: what a person sees in the app.
 */

export const PERMISSION_CODES: ReadonlySet<string> = new Set(['EACCES', 'EPERM'])
/** Watch-resource exhaustion: fall back to polling. */
export const FALLBACK_CODES: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'ENOSPC'])

export function folderNotFound(root: string): string {
  return `Folder not found: ${root} (removed or unmounted). Bookdrop will pick it up again when it comes back.`
}

export function folderNotAFolder(root: string): string {
  return `${root} is no longer a folder. Bookdrop will pick it up again when a folder is back at this path.`
}

export function folderDenied(root: string, code: string): string {
  return `Permission denied (${code}): Bookdrop can't read the folder ${root}. Give your user access to it; Bookdrop will pick it up again.`
}

export function folderUnavailable(root: string, code: string): string {
  return `Folder unavailable: ${root} (${code}). Bookdrop will pick it up again when it comes back.`
}

/** Sub-folders that could not be read; the rest of the folder is watched. */
export function subfoldersUnreadable(dirs: readonly string[], code: string): string {
  const first = dirs[0] ?? '?'
  const more = dirs.length > 1 ? ` and ${dirs.length - 1} other folder${dirs.length > 2 ? 's' : ''}` : ''
  if (PERMISSION_CODES.has(code)) {
    return `Permission denied (${code}) reading ${first}${more}: files there can't be seen until you give access. The rest of the folder is watched.`
  }
  return `Bookdrop can't read ${first}${more} (${code}): files there can't be seen for now. The rest of the folder is watched.`
}

export function switchedToPolling(code: string): string {
  switch (code) {
    case 'EMFILE':
      return 'Too many open files (EMFILE): switched to polling.'
    case 'ENFILE':
      return 'The system ran out of file handles (ENFILE): switched to polling.'
    case 'ENOSPC':
      return 'The system limit on watched files was reached (ENOSPC): switched to polling.'
    default:
      return `The file watcher failed (${code}): switched to polling.`
  }
}

export function pollingConfigured(intervalMs: number): string {
  const every = intervalMs % 1000 === 0 ? `${intervalMs / 1000} s` : `${intervalMs} ms`
  return `Checking for changes every ${every} (polling, as set for this folder).`
}

export function watcherProblem(code: string, message: string): string {
  return `The file watcher reported a problem (${code}): ${message}. Bookdrop keeps checking the folder with periodic rescans.`
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
