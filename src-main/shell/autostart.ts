/**
 * Launch at login on Linux, where Electron's app.setLoginItemSettings does nothing: an XDG autostart
 * entry in $XDG_CONFIG_HOME/autostart (default ~/.config/autostart). macOS and Windows use
 * app.setLoginItemSettings (src-main/electron/main.ts). Plain Node, tested in test/shell/autostart.test.ts.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { join } from 'node:path'

/** The argument the app gets when started at login: start in the tray, no window. */
export const HIDDEN_ARG = '--hidden'

export const AUTOSTART_FILE = 'bookdrop.desktop'

/** Quotes one argument of a desktop entry's Exec key (Desktop Entry Specification, "The Exec key"). */
export function quoteExecArg(arg: string): string {
  const escaped = arg.replace(/%/g, '%%')
  if (!/[\s"'\\><~|&;$*?#()`]/.test(escaped) && escaped !== '') return escaped
  return `"${escaped.replace(/(["`$\\])/g, '\\$1')}"`
}

/** The text of the autostart entry that starts `exec` with `args`. */
export function linuxAutostartEntry({
  exec,
  args = [HIDDEN_ARG],
  name = 'Bookdrop',
}: {
  exec: string
  args?: string[]
  name?: string
}): string {
  const clean = (s: string): string => s.replace(/[\r\n]/g, ' ')
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${clean(name)}`,
    `Exec=${[exec, ...args].map((a) => quoteExecArg(clean(a))).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n')
}

export function autostartDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const config =
    env['XDG_CONFIG_HOME'] && env['XDG_CONFIG_HOME'].startsWith('/')
      ? env['XDG_CONFIG_HOME']
      : join(home, '.config')
  return join(config, 'autostart')
}

/**
 * The program to autostart: inside an AppImage, the AppImage file itself (process.execPath points into
 * its temporary mount, which is gone after a reboot); otherwise the executable.
 */
export function autostartExecutable(execPath: string, env: NodeJS.ProcessEnv = process.env): string {
  return env['APPIMAGE'] || execPath
}

/** Writes or removes the entry. Returns the file's path. */
export async function applyLinuxAutostart(
  enabled: boolean,
  opts: { exec: string; dir?: string; args?: string[] },
): Promise<string> {
  const dir = opts.dir ?? autostartDir()
  const file = join(dir, AUTOSTART_FILE)
  if (enabled) {
    await mkdir(dir, { recursive: true })
    await writeFile(
      file,
      linuxAutostartEntry({ exec: opts.exec, ...(opts.args ? { args: opts.args } : {}) }),
      'utf8',
    )
  } else {
    await rm(file, { force: true })
  }
  return file
}
