/**
 * Names the watcher never reports: hidden files, temporary and partial downloads, editor swap and
 * backup files, and OS litter. Applied to every path segment below the watched folder, so a hidden
 * or temporary folder hides everything in it.
 */

/** Exact names (compared in lower case). */
const IGNORED_NAMES = new Set([
  'thumbs.db',
  'ehthumbs.db',
  'ehthumbs_vista.db',
  'desktop.ini',
  '$recycle.bin',
  'system volume information',
  'icon\r', // macOS custom folder icon file
])

/** Endings (compared in lower case). */
const IGNORED_SUFFIXES = [
  '.tmp',
  '.temp',
  '.part',
  '.partial', // Firefox
  '.crdownload', // Chrome, Edge
  '.download', // Safari (a bundle folder)
  '.opdownload', // Opera
  '.!ut', // uTorrent
  '.crswap', // Chrome File System Access API
  '.swp', // vim
  '.swo',
  '.swx',
  '.kate-swp',
]

/** macOS "safe save" temporary copies: `name.pdf.sb-1a2b3c4d-XyZ123`. */
const MAC_SAFE_SAVE = /\.sb-[0-9a-z]+-[0-9a-z]+$/i

/**
 * True when a file or folder of this name is never reported: dotfiles (`.DS_Store`, `.#lock`,
 * `._AppleDouble`), Office owner files (`~$report.docx`), `*.tmp`, `*.part`, `*.crdownload`,
 * `*.download`, vim/emacs swap and backup files (`*.swp`, `*.swo`, `*~`, `#autosave#`),
 * `Thumbs.db`, `desktop.ini` and similar.
 */
export function isIgnoredName(name: string): boolean {
  if (name === '' || name === '.' || name === '..') return true
  if (name.startsWith('.')) return true // hidden, incl. .DS_Store, .#emacs-lock, .~lock.x#
  if (name.startsWith('~$')) return true // Office owner/lock files
  if (name.endsWith('~')) return true // editor backups
  if (name.length > 1 && name.startsWith('#') && name.endsWith('#')) return true // emacs autosave
  const lower = name.toLowerCase()
  if (IGNORED_NAMES.has(lower)) return true
  for (const suffix of IGNORED_SUFFIXES) if (lower.endsWith(suffix)) return true
  return MAC_SAFE_SAVE.test(name)
}
