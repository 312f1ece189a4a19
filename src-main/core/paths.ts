import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { homedir, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * The folder of Bookdrop's package.json, found from `from` upwards: the same answer for the sources
 * (src-main/…) and the bundles (out/node/…, out/main/…).
 */
export function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json')
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name === 'bookdrop') return dir
      } catch {
        // not ours; keep looking
      }
    }
    if (dirname(dir) === dir) return from
  }
}

/** Where Bookdrop keeps its database and profile list (no secrets), per platform convention. */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.BOOKDROP_DATA_DIR) return env.BOOKDROP_DATA_DIR
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Bookdrop')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Bookdrop')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Bookdrop')
}

/** The data directory the person asked for (`--data-dir`, else BOOKDROP_DATA_DIR), or undefined. */
export function askedDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return flag ?? (env.BOOKDROP_DATA_DIR || undefined)
}

export interface TemporaryDataDir {
  dir: string
  /** Deletes the folder and everything in it. */
  remove(): Promise<void>
}

/**
 * A demo's data directory when none was asked for: a new private folder under the system's
 * temporary folder, so a demo leaves no trace in the person's configuration folder.
 */
export async function temporaryDataDir(): Promise<TemporaryDataDir> {
  const dir = await mkdtemp(join(tmpdir(), 'bookdrop-demo-data-'))
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) }
}

/** What a host says of a demo's temporary data directory. */
export function temporaryDataNotice(dir: string): string {
  return `bookdrop: the demo keeps its data in ${dir}, a temporary folder removed when it stops (--data-dir <dir> keeps it)`
}
