import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  AUTOSTART_FILE,
  applyLinuxAutostart,
  autostartDir,
  autostartExecutable,
  linuxAutostartEntry,
  quoteExecArg,
} from '../../src-main/shell/autostart'

describe('linux autostart entry', () => {
  it('starts the app hidden in the tray', () => {
    expect(linuxAutostartEntry({ exec: '/opt/Bookdrop/bookdrop' })).toBe(
      '[Desktop Entry]\nType=Application\nName=Bookdrop\nExec=/opt/Bookdrop/bookdrop --hidden\nTerminal=false\nX-GNOME-Autostart-enabled=true\n',
    )
  })

  it('quotes paths with spaces and reserved characters, and escapes %', () => {
    expect(quoteExecArg('/home/a b/Bookdrop.AppImage')).toBe('"/home/a b/Bookdrop.AppImage"')
    expect(quoteExecArg('/x/$HOME`"\\')).toBe('"/x/\\$HOME\\`\\"\\\\"')
    expect(quoteExecArg('100%')).toBe('100%%')
    expect(quoteExecArg('')).toBe('""')
  })

  it('cannot be broken into extra keys with a newline', () => {
    const text = linuxAutostartEntry({ exec: '/x\nExec=/bin/evil', name: 'B\nHidden=true' })
    expect(text.split('\n').filter((l) => l.startsWith('Exec='))).toHaveLength(1)
    expect(text).not.toMatch(/^Hidden=/m)
  })

  it('uses XDG_CONFIG_HOME when absolute, else ~/.config', () => {
    expect(autostartDir({ XDG_CONFIG_HOME: '/cfg' }, '/home/u')).toBe('/cfg/autostart')
    expect(autostartDir({ XDG_CONFIG_HOME: 'relative' }, '/home/u')).toBe('/home/u/.config/autostart')
    expect(autostartDir({}, '/home/u')).toBe('/home/u/.config/autostart')
  })

  it('autostarts the AppImage file rather than its temporary mount', () => {
    expect(autostartExecutable('/tmp/.mount_Bookdr/bookdrop', { APPIMAGE: '/home/u/Bookdrop.AppImage' })).toBe('/home/u/Bookdrop.AppImage')
    expect(autostartExecutable('/opt/Bookdrop/bookdrop', {})).toBe('/opt/Bookdrop/bookdrop')
  })
})

describe('applyLinuxAutostart', () => {
  let dir: string | undefined
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('writes the entry when enabled and removes it when disabled', async () => {
    dir = await mkdtemp(join(tmpdir(), 'bookdrop-autostart-'))
    const auto = join(dir, 'autostart')
    const file = await applyLinuxAutostart(true, { exec: '/opt/b', dir: auto })
    expect(file).toBe(join(auto, AUTOSTART_FILE))
    expect(await readFile(file, 'utf8')).toContain('Exec=/opt/b --hidden')
    await applyLinuxAutostart(false, { exec: '/opt/b', dir: auto })
    await expect(stat(file)).rejects.toThrow()
    await applyLinuxAutostart(false, { exec: '/opt/b', dir: auto }) // already gone: fine
  })
})
