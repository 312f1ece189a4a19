// What the app service asks of its host, done with Electron: native folder picker, save dialog for
// exports, "show in folder", and external links — only https, through the vetted shell/urls.
import { existsSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import {
  app,
  dialog,
  shell,
  type BrowserWindow,
  type OpenDialogOptions,
  type SaveDialogOptions,
} from 'electron'
import type { ShellPort } from '../core/app-service'
import { safeExternalUrl } from '../shell/urls'

/**
 * The only way the shell opens a URL outside the app. Anything but a clean https URL is dropped.
 *
 * Why https to any host is enough here: the danger of openExternal is handing the OS a URL that runs
 * something (file:, smb:, custom protocol handlers, a path to an executable); an https URL only
 * opens the person's browser, with none of the app's privileges and no secret (the app never puts a
 * key in a URL). The app's own pages link to the API's documentation and a server's own addresses,
 * which a person may configure (a custom base URL), so a fixed host list would break real links
 * without removing a real risk. A page that could call this could already show the same link.
 */
export async function openExternalSafely(url: string): Promise<void> {
  const safe = safeExternalUrl(url)
  if (!safe) return
  await shell.openExternal(safe, { activate: true })
}

/**
 * The OS's preferred languages (issue 34): the only place the desktop app asks the OS for them. An
 * Electron without the call (or one that throws) gives none, and the app speaks English.
 */
export function osPreferredLanguages(): readonly string[] {
  try {
    return typeof app.getPreferredSystemLanguages === 'function' ? app.getPreferredSystemLanguages() : []
  } catch {
    return []
  }
}

export function electronShellPort(getWindow: () => BrowserWindow | null): ShellPort {
  const parent = (): BrowserWindow | null => {
    const win = getWindow()
    return win && !win.isDestroyed() ? win : null
  }
  return {
    async pickDirectory() {
      const options: OpenDialogOptions = {
        title: 'Choose a folder to watch',
        properties: ['openDirectory', 'createDirectory'],
      }
      const win = parent()
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options)
      return r.canceled ? null : (r.filePaths[0] ?? null)
    },
    async showItemInFolder(path) {
      if (!isAbsolute(path) || !existsSync(path)) return false
      shell.showItemInFolder(path)
      return true
    },
    openExternal: openExternalSafely,
    preferredLanguages: osPreferredLanguages,
    async chooseExportPath(defaultName) {
      const options: SaveDialogOptions = {
        title: 'Export upload history',
        defaultPath: join(app.getPath('downloads'), defaultName),
        filters: [{ name: 'CSV', extensions: ['csv'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      }
      const win = parent()
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options)
      return r.canceled || !r.filePath ? null : r.filePath
    },
  }
}
