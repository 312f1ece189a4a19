import { homedir } from 'node:os'
import { join } from 'node:path'

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
