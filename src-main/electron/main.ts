// The Electron shell: one window, a tray icon, native dialogs and notifications around the one
// AppService. Decisions live in plain Node (shell/*, core/security.ts, core/bridge.ts, all
// unit-tested); this file wires them to Electron. Split: window.ts (window + web guards), tray.ts,
// notifications.ts, shell-port.ts (dialogs, external links), ipc.ts (the contract over IPC).
import { app, type BrowserWindow, dialog, session } from 'electron'
import type { CallName, Req, Res } from '../../contract'
import { AppService } from '../core/app-service'
import { AlreadyRunningError, CorruptDatabaseError, moveDatabaseAside } from '../core/store/data-dir'
import { privacyNotice } from '../core/store/private-dir'
import { dispatch } from '../core/bridge'
import { HIDDEN_ARG, applyLinuxAutostart, autostartExecutable } from '../shell/autostart'
import { ShellController } from '../shell/controller'
import { registerIpc } from './ipc'
import { systemProxy, watchNetwork } from './network'
import { showNativeNotification } from './notifications'
import { electronShellPort, openExternalSafely, osPreferredLanguages } from './shell-port'
import { ShellTray } from './tray'
import { sandboxDemo } from '../demo-launcher'
import {
  appLocation,
  createMainWindow,
  hardenSession,
  hardenWebContents,
  installAppMenu,
  registerAppScheme,
  revealWindow,
  serveAppScheme,
} from './window'

/** How long quitting waits for the engine to stop before giving up (unfinished uploads resume next time). */
const SHUTDOWN_TIMEOUT_MS = 5000

const location = appLocation(app.isPackaged)
// The renderer's own scheme (app://bookdrop/) must be declared before the app is ready.
registerAppScheme()
// With no key configured yet, the app opens on the embedded emulator (demo mode) so there is
// something real to try at once; `--no-demo` opens on the connect screen instead.
const demo = !process.argv.includes('--no-demo')

let service: AppService | null = null
let controller: ShellController | null = null
let tray: ShellTray | null = null
let mainWindow: BrowserWindow | null = null
let opening: Promise<BrowserWindow> | null = null
let stopIpc: (() => void) | null = null
let stopNetwork: (() => void) | null = null

// Every webContents the app ever creates gets the guards, before it can load anything.
app.on('web-contents-created', (_event, contents) => {
  hardenWebContents(contents, location, (url) => void openExternalSafely(url))
})

function launchedAtLogin(): boolean {
  if (process.argv.includes(HIDDEN_ARG)) return true // Windows and Linux pass it (autostart.ts, below)
  return process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin
}

function setLaunchAtLogin(enabled: boolean): void {
  if (!app.isPackaged) return // never register the development Electron binary as a login item
  if (process.platform === 'linux') {
    void applyLinuxAutostart(enabled, { exec: autostartExecutable(process.execPath) }).catch((e: unknown) =>
      console.error('Bookdrop: could not change launch at login:', e),
    )
  } else {
    app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_ARG] })
  }
}

/** The window, created on first use (and again after it was really closed). */
async function ensureWindow(hidden = false): Promise<BrowserWindow> {
  if (mainWindow && !mainWindow.isDestroyed()) return mainWindow
  opening ??= createMainWindow({
    app: location,
    packaged: app.isPackaged,
    dataDir: app.getPath('userData'),
    hidden,
    // Hiding needs a way back: only when the tray icon exists.
    hideOnClose: () => tray !== null && (controller?.hideOnClose() ?? false),
    onShown: () => controller?.windowShown(),
  })
    .then((win) => {
      mainWindow = win
      win.on('closed', () => {
        if (mainWindow === win) mainWindow = null
      })
      return win
    })
    .finally(() => (opening = null))
  return opening
}

function showWindow(): void {
  void ensureWindow().then(revealWindow, (e: unknown) =>
    console.error('Bookdrop: could not open the window:', e),
  )
}

/**
 * Runs one contract call for the shell itself (tray menu, tray drops) through the same validation
 * and error handling as IPC; a failure is told in a notification (there may be no window to show it).
 */
async function trayCall<K extends CallName>(name: K, req: Req<K>): Promise<Res<K> | null> {
  if (!service) return null
  const result = await dispatch(service, name, req)
  if (result.ok) return result.value
  showNativeNotification(
    {
      title: 'Bookdrop',
      body: controller?.errorText(result.error) ?? result.error.message,
      kind: 'attention',
      summary: { completed: 0, attention: 0, singleName: null },
    },
    showWindow,
  )
  return null
}

function pauseOrResume(name: 'pauseUploads' | 'resumeUploads'): void {
  void trayCall(name, {}).then((state) => {
    if (state) controller?.setSession(state)
  })
}

/**
 * The app service, or null when the app must quit: a queue database that cannot be read is named in
 * a dialog that offers to move it aside (nothing is deleted) and start fresh; a data folder another
 * Bookdrop process holds (the headless mode, say) is explained.
 */
async function openService(): Promise<AppService | null> {
  const dataDir = app.getPath('userData')
  for (;;) {
    try {
      return await AppService.open({
        dataDir,
        host: 'electron',
        shell: electronShellPort(() => mainWindow),
        demo,
        demoLauncher: sandboxDemo,
        // The OS's proxy settings and PAC file, as Chromium resolves them (loopback never asks).
        systemProxy,
      })
    } catch (e) {
      if (e instanceof CorruptDatabaseError) {
        const choice = await dialog.showMessageBox({
          type: 'error',
          title: 'Bookdrop',
          message: 'Bookdrop cannot read its upload queue.',
          detail:
            `${e.path} cannot be read (${e.detail}).\n\n` +
            'Bookdrop can move it aside (it is renamed, not deleted) and start with an empty queue. ' +
            'Files already sent stay on the server; watched folders are looked at again.',
          buttons: ['Move it aside and start fresh', 'Quit'],
          defaultId: 0,
          cancelId: 1,
          noLink: true,
        })
        if (choice.response === 0) {
          moveDatabaseAside(e.path)
          continue
        }
        app.exit(3)
        return null
      }
      if (e instanceof AlreadyRunningError) {
        dialog.showErrorBox('Bookdrop is already running', e.message)
        app.exit(4)
        return null
      }
      throw e
    }
  }
}

async function start(): Promise<void> {
  // Windows shows toasts only for an app with an AppUserModelID (the appId of electron-builder.yml).
  if (process.platform === 'win32') app.setAppUserModelId('com.bookdrop.desktop')
  hardenSession(session.defaultSession, location)
  serveAppScheme(location)
  installAppMenu(app.isPackaged)

  service = await openService()
  if (!service) return
  const privacy = privacyNotice(app.getPath('userData'), service.engine.openReport.madePrivate)
  if (privacy) console.error(privacy)
  stopIpc = registerIpc(service, () => location.url)
  // Offline: uploads wait (never fail); online again or awake: what waited goes at once.
  stopNetwork = watchNetwork((online) => service?.networkChanged(online))

  const settings = await service.getSettings({})
  controller = new ShellController({
    settings,
    notify: (n) => showNativeNotification(n, showWindow),
    renderTray: (view) => tray?.render(view),
    setLaunchAtLogin,
    // The tray and notifications speak the person's language (issue 34).
    systemLanguages: osPreferredLanguages,
    language: settings.language,
  })
  service.onEvent((name, payload) => controller?.handleEvent(name, payload))

  try {
    tray = new ShellTray(
      {
        open: showWindow,
        pause: () => pauseOrResume('pauseUploads'),
        resume: () => pauseOrResume('resumeUploads'),
        quit: () => app.quit(),
        dropFiles: (paths) => {
          // Files the person dropped on the tray icon (macOS): the OS gave these paths, not a page.
          service?.grantFiles(paths)
          void trayCall('addFiles', { paths, target: controller?.dropTargetForTray ?? 'expenses' })
        },
      },
      controller.trayView,
    )
  } catch (e) {
    // No system tray (some Linux desktops): the app still works; closing the window quits it.
    console.error('Bookdrop: no tray icon:', e)
    tray = null
  }
  controller.setSession(await service.getSession({}))
  controller.flushTray()

  const hidden = tray !== null && launchedAtLogin()
  const win = await ensureWindow(hidden)
  if (!hidden) revealWindow(win)
}

/** Stops the engine cleanly (its queue is on disk either way: nothing is lost if this times out). */
async function shutdown(): Promise<void> {
  stopNetwork?.()
  controller?.dispose()
  stopIpc?.()
  tray?.destroy()
  tray = null
  const closing = service?.close()
  service = null
  if (closing) {
    await Promise.race([closing, new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS).unref())])
  }
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', showWindow)
  app.on('activate', showWindow) // macOS: dock icon clicked
  app.on('before-quit', () => controller?.beginQuit())
  app.on('window-all-closed', () => {
    const keep = tray !== null && (controller?.keepRunningWithoutWindows(process.platform) ?? false)
    if (!keep) app.quit()
  })
  let stopped = false
  let stopping = false
  app.on('will-quit', (event) => {
    if (stopped) return
    event.preventDefault()
    if (stopping) return
    stopping = true
    void shutdown()
      .catch((e: unknown) => console.error('Bookdrop: error while stopping:', e))
      .finally(() => {
        stopped = true
        app.quit()
      })
  })
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      console.error('Bookdrop could not start:', e)
      app.exit(1)
    })
}
