// The Electron shell: one window, a tray icon, native dialogs and notifications around the one
// AppService. Decisions live in plain Node (core/shell/*, core/security.ts, core/bridge.ts, all
// unit-tested); this file wires them to Electron. Split: window.ts (window + web guards), tray.ts,
// notifications.ts, shell-port.ts (dialogs, external links), ipc.ts (the contract over IPC).
import { app, type BrowserWindow, session } from 'electron'
import type { CallName, Req, Res } from '../../src-preload/contract'
import { AppService } from '../core/app-service'
import { dispatch } from '../core/bridge'
import { HIDDEN_ARG, applyLinuxAutostart, autostartExecutable } from '../core/shell/autostart'
import { ShellController } from '../core/shell/controller'
import { registerIpc } from './ipc'
import { showNativeNotification } from './notifications'
import { electronShellPort, openExternalSafely } from './shell-port'
import { ShellTray } from './tray'
import {
  appLocation,
  createMainWindow,
  hardenSession,
  hardenWebContents,
  installAppMenu,
  revealWindow,
} from './window'

/** How long quitting waits for the engine to stop before giving up (unfinished uploads resume next time). */
const SHUTDOWN_TIMEOUT_MS = 5000

const location = appLocation(app.isPackaged)
// With no key configured yet, the app opens on the embedded emulator (demo mode) so there is
// something real to try at once; `--no-demo` opens on the connect screen instead.
const demo = !process.argv.includes('--no-demo')

let service: AppService | null = null
let controller: ShellController | null = null
let tray: ShellTray | null = null
let mainWindow: BrowserWindow | null = null
let opening: Promise<BrowserWindow> | null = null
let stopIpc: (() => void) | null = null

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
      body: result.error.message,
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

async function start(): Promise<void> {
  // Windows shows toasts only for an app with an AppUserModelID (the appId of electron-builder.yml).
  if (process.platform === 'win32') app.setAppUserModelId('com.bookdrop.desktop')
  hardenSession(session.defaultSession, location)
  installAppMenu(app.isPackaged)

  service = await AppService.open({
    dataDir: app.getPath('userData'),
    host: 'electron',
    shell: electronShellPort(() => mainWindow),
    demo,
  })
  stopIpc = registerIpc(service, () => location.url)

  const settings = await service.getSettings()
  controller = new ShellController({
    settings,
    notify: (n) => showNativeNotification(n, showWindow),
    renderTray: (view) => tray?.render(view),
    setLaunchAtLogin,
  })
  service.onEvent((name, payload) => controller?.handleEvent(name, payload))

  try {
    tray = new ShellTray(
      {
        open: showWindow,
        pause: () => pauseOrResume('pauseUploads'),
        resume: () => pauseOrResume('resumeUploads'),
        quit: () => app.quit(),
        dropFiles: (paths) =>
          void trayCall('addFiles', { paths, target: controller?.dropTargetForTray ?? 'expenses' }),
      },
      controller.trayView,
    )
  } catch (e) {
    // No system tray (some Linux desktops): the app still works; closing the window quits it.
    console.error('Bookdrop: no tray icon:', e)
    tray = null
  }
  controller.setSession(await service.getSession())
  controller.flushTray()

  const hidden = tray !== null && launchedAtLogin()
  const win = await ensureWindow(hidden)
  if (!hidden) revealWindow(win)
}

/** Stops the engine cleanly (its queue is on disk either way: nothing is lost if this times out). */
async function shutdown(): Promise<void> {
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
