/**
 * Paths only from the user (design.md §1): which files main may read and which folders it may watch
 * or move files into. A call's arguments are untrusted (a compromised page, or any local program that
 * reaches the web host), so a path is acted on only when the person chose it:
 *
 * - a file: from the app's own open dialog or from a drop in the last few minutes, registered with
 *   main by the shell (the preload's `webUtils.getPathForFile`, which has a path only for a real file
 *   the person dropped or picked): `PathGrants`;
 * - a watched folder: an existing directory that passes `checkWatchedFolder`, typed or picked;
 * - an after-upload destination: inside the watched folder, or a folder picked in the native picker;
 * - accepted kinds: only Bookdrop's own list of document kinds.
 *
 * Plain Node, no Electron: every rule is unit-tested.
 */
import { realpath, stat } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, posix, resolve, win32 } from 'node:path'
import { AppError } from './app-error'
import { coded } from '../../contract/coded'
import type { Coded } from '../../contract/message'
import { MAIN_ERRORS as E } from '../../contract/main-messages'
import { PRODUCT_KINDS } from './kinds'
import type { FolderConfig } from '../../contract/types'

/** How long a dropped or picked file may be added after the drop (the person is still there). */
export const FILE_GRANT_TTL_MS = 5 * 60_000
/** How long a folder picked in the native picker may be saved as a destination (a form takes a while). */
export const DIRECTORY_GRANT_TTL_MS = 60 * 60_000
/** At most this many remembered grants of each kind (the oldest go first). */
const MAX_GRANTS = 10_000

function key(path: string, platform: NodeJS.Platform): string {
  const r = resolve(path)
  return platform === 'win32' || platform === 'darwin' ? r.toLowerCase() : r
}

/** Paths the person gave this process: files dropped or picked, and folders picked. */
export class PathGrants {
  private readonly files = new Map<string, number>()
  private readonly dirs = new Map<string, number>()

  constructor(
    private readonly now: () => number = Date.now,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  private add(map: Map<string, number>, path: string, ttl: number): void {
    if (typeof path !== 'string' || path === '' || path.length > 4096 || !isAbsolute(path) || path.includes('\0')) return
    const k = key(path, this.platform)
    map.delete(k)
    map.set(k, this.now() + ttl)
    while (map.size > MAX_GRANTS) map.delete(map.keys().next().value!)
  }

  private has(map: Map<string, number>, path: string): boolean {
    const k = key(path, this.platform)
    const until = map.get(k)
    if (until === undefined) return false
    if (until < this.now()) {
      map.delete(k)
      return false
    }
    return true
  }

  /** A file the person dropped on the window or picked in the open dialog. */
  grantFile(path: string): void {
    this.add(this.files, path, FILE_GRANT_TTL_MS)
  }

  /** A folder the person picked in the native folder picker. */
  grantDirectory(path: string): void {
    this.add(this.dirs, path, DIRECTORY_GRANT_TTL_MS)
  }

  isFileGranted(path: string): boolean {
    return this.has(this.files, path)
  }

  isDirectoryGranted(path: string): boolean {
    return this.has(this.dirs, path)
  }
}

// ---------------------------------------------------------------------------------------------
// Folder rules
// ---------------------------------------------------------------------------------------------

/** Folders that hold the system, per platform: never watched, nor anything inside them. */
const SYSTEM_TREES: Record<'posix' | 'darwin' | 'win32', readonly string[]> = {
  posix: ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/run', '/sbin', '/sys', '/usr', '/var/lib', '/var/log', '/var/run', '/snap'],
  darwin: ['/System', '/Library', '/bin', '/sbin', '/usr', '/dev', '/etc', '/private/etc', '/private/var/db', '/cores', '/Applications'],
  win32: ['C:\\Windows', 'C:\\Program Files', 'C:\\Program Files (x86)', 'C:\\ProgramData', 'C:\\$Recycle.Bin', 'C:\\System Volume Information'],
}
/** Folders that may not be watched themselves, though folders inside them may (removable drives). */
const SYSTEM_DIRS: Record<'posix' | 'darwin' | 'win32', readonly string[]> = {
  posix: ['/home', '/media', '/mnt', '/opt', '/root', '/srv', '/tmp', '/var', '/Users'],
  darwin: ['/Users', '/Volumes', '/private', '/private/var', '/private/tmp', '/tmp', '/var', '/opt'],
  win32: ['C:\\Users'],
}
/**
 * Where command-line tools keep credentials, in the home folder on every platform: cloud and
 * container accounts, cluster configs, key rings and password stores, package registry tokens.
 * A watched folder there would send keys to the bookkeeping service as "receipts".
 */
const CREDENTIAL_TREES = [
  '.ssh', '.gnupg', '.aws', '.azure', '.kube', '.docker', '.gcloud', '.oci', '.terraform.d',
  '.password-store', '.cargo', '.m2', '.gradle', '.gem', '.pki', '.bitcoin', '.electrum',
] as const
/**
 * The account's own settings, inside the home folder: programs start from these (autostart, shell
 * profiles, keys), and credentials live there (`~/.config/gcloud`, `~/.local/share/keyrings`, the
 * macOS keychains in `~/Library/Keychains`, Windows' credential files in `AppData`), so nothing is
 * watched there or below.
 */
const ACCOUNT_TREES: Record<'posix' | 'darwin' | 'win32', readonly string[]> = {
  posix: ['.config', '.local', '.mozilla', '.thunderbird', ...CREDENTIAL_TREES],
  darwin: ['Library', '.config', '.local', ...CREDENTIAL_TREES],
  win32: ['AppData', '.config', ...CREDENTIAL_TREES],
}
/** Inside /run only these trees hold people's files (removable drives on some distributions). */
const POSIX_RUN_EXCEPTIONS = ['/run/media']

export interface FolderRuleContext {
  /** Bookdrop's data directory (the database, dropped files): never watched. */
  dataDir: string
  home?: string
  platform?: NodeJS.Platform
}

export type FolderRule =
  | 'not_absolute'
  | 'missing'
  | 'not_directory'
  | 'filesystem_root'
  | 'system_directory'
  | 'home_directory'
  | 'data_directory'
  | 'destination_outside'
  | 'destination_is_folder'
  | 'unknown_kind'

/** A refused folder setting: `rule` names the rule, `field` the form field it belongs to. */
export class FolderRuleError extends AppError {
  constructor(
    readonly rule: FolderRule,
    message: Coded,
    field: 'path' | 'archiveDir' | 'acceptedKinds',
    hint: string,
  ) {
    super(rule === 'missing' ? 'folder_not_found' : `folder_${rule}`, message, { [field]: hint })
    // The form shows the whole sentence under the field in the person's language.
    this.codedFields = { [field]: message }
  }
}

function pathApi(platform: NodeJS.Platform) {
  return platform === 'win32' ? win32 : posix
}

/**
 * True when `child` is `parent` or lies inside it, both already resolved (absolute and normalised);
 * case-insensitive on Windows and macOS. No path resolution: the folder rules test one path against
 * some forty system folders, and resolving each pair woke V8's optimizing compiler at every start
 * (issue 14: idle memory).
 */
function within(child: string, parent: string, platform: NodeJS.Platform): boolean {
  const c = fold(child, platform)
  const a = fold(parent, platform)
  if (c === a) return true
  const sep = platform === 'win32' ? '\\' : '/'
  return c.startsWith(a.endsWith(sep) ? a : a + sep)
}

/** True when `child` is `parent` or lies inside it (case-insensitive on Windows and macOS). */
export function isInside(child: string, parent: string, platform: NodeJS.Platform = process.platform): boolean {
  const p = pathApi(platform)
  return within(p.resolve(child), p.resolve(parent), platform)
}

function same(a: string, b: string, platform: NodeJS.Platform): boolean {
  const p = pathApi(platform)
  return equal(p.resolve(a), p.resolve(b), platform)
}

/** Two resolved paths name the same folder (case-insensitive on Windows and macOS). */
function equal(a: string, b: string, platform: NodeJS.Platform): boolean {
  return fold(a, platform) === fold(b, platform)
}

/** A path as the platform compares it: Windows and macOS file systems ignore case. */
function fold(s: string, platform: NodeJS.Platform): string {
  return platform === 'win32' || platform === 'darwin' ? s.toLowerCase() : s
}

/** The real path when it exists (symlinks resolved), else the resolved path. */
async function real(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path))
}

/**
 * The rule a watched folder breaks, or null: a filesystem root, a system directory, the home
 * directory itself, or Bookdrop's data directory (or a folder inside it, or, when watched with its
 * subfolders, one that holds it). Pure: `path` is already resolved (and real).
 */
export function watchedFolderRule(
  path: string,
  ctx: Required<FolderRuleContext> & { recursive?: boolean },
): { rule: FolderRule; message: Coded; hint: string } | null {
  const { platform } = ctx
  const p = pathApi(platform)
  const shown = path
  path = p.resolve(path)
  const home = p.resolve(ctx.home)
  const dataDir = p.resolve(ctx.dataDir)
  if (p.parse(path).root === path) {
    return { rule: 'filesystem_root', message: coded(E.folderRoot, { path: shown }), hint: 'a drive root cannot be watched' }
  }
  const kind = platform === 'win32' ? 'win32' : platform === 'darwin' ? 'darwin' : 'posix'
  const trees = SYSTEM_TREES[kind]
  const exceptions = kind === 'posix' ? POSIX_RUN_EXCEPTIONS : []
  const inTree = trees.some((t) => within(path, t, platform)) && !exceptions.some((e) => within(path, e, platform) && !equal(path, e, platform))
  const isDir = SYSTEM_DIRS[kind].some((d) => equal(path, d, platform)) || exceptions.some((e) => equal(path, e, platform))
  const winSystem = platform === 'win32' && /^[A-Za-z]:\\(Windows|Program Files( \(x86\))?|ProgramData)(\\|$)/i.test(path)
  if (inTree || isDir || winSystem) {
    return {
      rule: 'system_directory',
      message: coded(E.folderSystem, { path: shown }),
      hint: 'system folders cannot be watched',
    }
  }
  if (equal(path, home, platform)) {
    return {
      rule: 'home_directory',
      message: coded(E.folderHome, { path: shown }),
      hint: 'choose a folder inside your home folder',
    }
  }
  if (!within(path, dataDir, platform) && ACCOUNT_TREES[kind].some((t) => within(path, p.join(home, t), platform))) {
    return {
      rule: 'system_directory',
      message: coded(E.folderAccount, { path: shown }),
      hint: "your account's settings cannot be watched",
    }
  }
  if (within(path, dataDir, platform) || (ctx.recursive === true && within(dataDir, path, platform))) {
    return {
      rule: 'data_directory',
      message: coded(within(path, dataDir, platform) ? E.folderInsideData : E.folderAroundData, { path: shown }),
      hint: "Bookdrop's data folder cannot be watched",
    }
  }
  return null
}

function fullContext(ctx: FolderRuleContext): Required<FolderRuleContext> {
  return { dataDir: resolve(ctx.dataDir), home: ctx.home ?? homedir(), platform: ctx.platform ?? process.platform }
}

/**
 * Checks a folder to watch and returns its real path: it must exist, be a directory, and pass
 * `watchedFolderRule`. Throws a FolderRuleError naming the rule otherwise.
 */
export async function checkWatchedFolder(
  path: string,
  ctx: FolderRuleContext & { recursive?: boolean },
): Promise<string> {
  if (typeof path !== 'string' || !isAbsolute(path)) {
    throw new FolderRuleError('not_absolute', coded(E.folderNotAbsolute), 'path', 'must be an absolute path')
  }
  const full = fullContext(ctx)
  const st = await stat(path).catch(() => null)
  if (!st) throw new FolderRuleError('missing', coded(E.folderNotFound, { path }), 'path', 'this folder does not exist')
  if (!st.isDirectory()) throw new FolderRuleError('not_directory', coded(E.folderNotDirectory, { path }), 'path', 'choose a folder, not a file')
  const resolved = await real(path)
  const [home, dataDir] = await Promise.all([real(full.home), real(full.dataDir)])
  // Both spellings are checked: the one typed, and where its symlinks really lead.
  for (const candidate of new Set([resolve(path), resolved])) {
    const broken = watchedFolderRule(candidate, { ...full, home, dataDir, recursive: ctx.recursive ?? false })
    if (broken) throw new FolderRuleError(broken.rule, broken.message, 'path', broken.hint)
  }
  return resolved
}

/**
 * An after-upload destination ("archive" folder): inside the watched folder (not the folder itself,
 * where a moved file would be seen again), or a folder the person picked in the native picker.
 */
export async function checkDestination(
  archiveDir: string,
  folder: string,
  picked: (path: string) => boolean,
  platform: NodeJS.Platform = process.platform,
): Promise<void> {
  const dest = resolve(archiveDir)
  const realDest = await real(dest)
  const realFolder = await real(folder)
  if (same(realDest, realFolder, platform) || same(dest, folder, platform)) {
    throw new FolderRuleError(
      'destination_is_folder',
      coded(E.destinationIsFolder),
      'archiveDir',
      'choose another folder',
    )
  }
  const inside = isInside(dest, folder, platform) && isInside(realDest, realFolder, platform)
  if (inside || picked(dest) || picked(realDest)) return
  throw new FolderRuleError(
    'destination_outside',
    coded(E.destinationOutside, { path: dest, folder }),
    'archiveDir',
    'pick the folder with Choose…, or use one inside the watched folder',
  )
}

/** Accepted kinds: only Bookdrop's own list of document kinds (file extensions). */
export function checkAcceptedKinds(kinds: readonly string[] | undefined): void {
  if (!kinds) return
  const unknown = kinds.map((k) => k.toLowerCase().replace(/^\./, '')).filter((k) => !PRODUCT_KINDS.includes(k))
  if (unknown.length) {
    throw new FolderRuleError(
      'unknown_kind',
      coded(E.unknownKinds, { kinds: unknown.map((k) => `.${k}`).join(', '), accepted: PRODUCT_KINDS.join(', ') }),
      'acceptedKinds',
      'choose kinds from the list',
    )
  }
}


/** What the folder rules need to know beyond the folder itself. */
export interface FolderChecks {
  /** Bookdrop's data directory (never watched). */
  dataDir: string
  /** True for a folder the person picked in the native picker (a destination outside the folder must be one). */
  isPickedDirectory(path: string): boolean
}

/**
 * The folder rules for what changed since `prev`: the folder itself, its after-upload destination
 * and its accepted kinds. A setting saved earlier stays valid (a folder picked months ago is no
 * longer in the picker's memory).
 */
export async function checkFolderRules(
  next: Pick<FolderConfig, 'path' | 'recursive' | 'acceptedKinds' | 'afterUpload' | 'archiveDir'>,
  prev: Pick<FolderConfig, 'path' | 'recursive' | 'acceptedKinds' | 'afterUpload' | 'archiveDir'> | null,
  ctx: FolderChecks,
): Promise<void> {
  if (!prev || prev.path !== next.path || (next.recursive && !prev.recursive)) {
    await checkWatchedFolder(next.path, { dataDir: ctx.dataDir, recursive: next.recursive })
  }
  const kinds = (k: readonly string[]) => [...k].sort().join(',')
  if (!prev || kinds(prev.acceptedKinds) !== kinds(next.acceptedKinds)) checkAcceptedKinds(next.acceptedKinds)
  if (
    next.afterUpload === 'archive' &&
    next.archiveDir &&
    (!prev || prev.afterUpload !== 'archive' || prev.archiveDir !== next.archiveDir || prev.path !== next.path)
  ) {
    await checkDestination(next.archiveDir, next.path, (p) => ctx.isPickedDirectory(p))
  }
}
