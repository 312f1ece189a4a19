import { existsSync, readFileSync } from 'node:fs'
import { homedir } from 'node:os'
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
