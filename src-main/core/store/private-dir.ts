/**
 * The data folder is private (issue 23): the upload history names every receipt and where it came
 * from, dropped receipts are copies of people's documents, and exports are the whole history. The
 * folder is 0700 and every file Bookdrop writes in it 0600 (owner only): the database and its WAL
 * and SHM (SQLite gives those the database file's mode), the lock and pid files, profiles.json,
 * window-state.json, `dropped/`, `exports/`, `logs/`, and the local copies of receipts: prepared photos
 * (`prepared/`), mail attachments (`mail/`) and what phones sent (`phone/`).
 *
 * A folder made by an older Bookdrop (0755, files 0644) is tightened when the engine opens it, and
 * the hosts say so once (the next start finds nothing to tighten). Only Bookdrop's own entries are
 * touched: the desktop app's data folder is also Electron's, whose own folders (caches, storage)
 * Chromium keeps private itself and which the folder's 0700 already closes. Symbolic links are
 * never followed. On Windows these modes mean nothing: the folder lives in the account's own
 * profile (%APPDATA%), which only that account and administrators can read.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync } from 'node:fs'
import { chmod, lstat, mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createAtFreeName, numberedNames } from '../util'

export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** Bookdrop's own folders inside the data folder: everything in them is Bookdrop's. */
export const PRIVATE_SUBDIRS = ['dropped', 'exports', 'logs', 'prepared', 'mail', 'phone'] as const

/** Bookdrop's own files at the top of the data folder (the database's companions included). */
const OWN_FILE =
  /^(?:bookdrop\.(?:db|lock|pid)(?:-wal|-shm|-journal|\.corrupt-.*)?|profiles\.json|window-state\.json|.*\.tmp)$/

const isWindows = (platform: NodeJS.Platform) => platform === 'win32'

/** What was tightened when the folder was opened (nothing: a fresh or already private folder). */
export interface PrivacyReport {
  /** The data folder itself was readable or enterable by others. */
  folder: boolean
  /** Files and folders inside it that were. */
  entries: number
}

/** Creates `dir` (and its parents) owner-only; an existing folder keeps its mode (see makeDataDirPrivate). */
export function mkdirPrivate(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
}

/** Creates a private folder (0700) and its parents, inside the data folder (prepared photos, mail, phone). */
export async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
}

/** Writes bytes as a new private file (0600) under `name` in `dir`, or "name (2)"…, never replacing one. */
export async function writePrivateFile(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  await privateDir(dir)
  return createAtFreeName(dir, numberedNames(name), (path) => writeFile(path, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE }))
}

/**
 * Creates `path` empty and owner-only when it does not exist yet, so that what opens it next
 * (SQLite) finds the mode already right; SQLite's -wal and -shm files take the database's mode.
 */
export function createPrivateFile(path: string, platform: NodeJS.Platform = process.platform): void {
  if (isWindows(platform)) return
  try {
    closeSync(openSync(path, 'wx', PRIVATE_FILE_MODE))
  } catch (e) {
    if ((e as { code?: string }).code !== 'EEXIST') throw e
    // There already: tightened by makeDataDirPrivate when it was looser.
  }
}

/** Takes the group's and others' rights away from a file or folder; true when it had any. */
async function tighten(path: string, isDir: boolean): Promise<boolean> {
  const st = await lstat(path).catch(() => null)
  if (!st || st.isSymbolicLink() || (!st.isFile() && !st.isDirectory())) return false
  if ((st.mode & 0o077) === 0) return false
  await chmod(path, isDir ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE)
  return true
}

/** Tightens a folder of Bookdrop's and everything in it (links are not followed, nor entered). */
async function tightenTree(dir: string): Promise<number> {
  let n = (await tighten(dir, true)) ? 1 : 0
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  for (const e of entries) {
    const path = join(dir, e.name)
    if (e.isDirectory()) n += await tightenTree(path)
    else if (e.isFile() && (await tighten(path, false))) n++
  }
  return n
}

/**
 * Makes the data folder private: creates it 0700, or tightens an existing one, its own files and
 * folders (see above). Returns what was tightened, for the hosts to say once.
 */
export async function makeDataDirPrivate(
  dataDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<PrivacyReport> {
  mkdirPrivate(dataDir)
  if (isWindows(platform)) return { folder: false, entries: 0 }
  const folder = (lstatSync(dataDir).mode & 0o077) !== 0
  if (folder) chmodSync(dataDir, PRIVATE_DIR_MODE)
  let entries = 0
  for (const e of await readdir(dataDir, { withFileTypes: true })) {
    const path = join(dataDir, e.name)
    if (e.isDirectory() && (PRIVATE_SUBDIRS as readonly string[]).includes(e.name))
      entries += await tightenTree(path)
    else if (e.isFile() && OWN_FILE.test(e.name) && (await tighten(path, false))) entries++
  }
  return { folder, entries }
}

/** The one line the hosts print after tightening, or null when nothing was. */
export function privacyNotice(dataDir: string, r: PrivacyReport): string | null {
  if (!r.folder && r.entries === 0) return null
  const what = [
    r.folder ? 'the folder' : null,
    r.entries ? `${r.entries} ${r.entries === 1 ? 'entry' : 'entries'} in it` : null,
  ]
    .filter(Boolean)
    .join(' and ')
  return `bookdrop: the data folder ${dataDir} could be read by other users of this computer; ${what} made private (owner only)`
}
