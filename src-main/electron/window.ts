// The main window and the web-security guards of the shell. Every decision is made by a plain-Node
// function in shell/ (unit-tested); this file only wires them to Electron's hooks.
import { join } from 'node:path'
import { BrowserWindow, Menu, protocol, screen, type Session, type WebContents } from 'electron'
import { APP_ENTRY_URL, APP_SCHEME, APP_SCHEME_PRIVILEGES, answerAppRequest } from '../shell/app-protocol'
import { contentSecurityPolicy, withCspHeader } from '../shell/csp'
import { allowPermission } from '../shell/permissions'
import { decideNavigation } from '../shell/urls'
import {
  DEFAULT_WINDOW,
  fitWindowState,
  loadWindowState,
  saveWindowState,
  type Rect,
} from '../shell/window-state'

const here = import.meta.dirname // out/main at run time

/** Where the renderer comes from: the Vite dev server (electron-vite dev) or the built files. */
export interface AppLocation {
  /** The URL the window shows; also what IPC senders and navigations are checked against. */
  url: string
  /** The built renderer (out/renderer), served on app://bookdrop/; null on the dev server. */
  rendererDir: string | null
  dev: boolean
}

export function appLocation(isPackaged: boolean): AppLocation {
  const devServer = isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL']
  if (devServer) return { url: devServer, rendererDir: null, dev: true }
  return { url: APP_ENTRY_URL, rendererDir: join(here, '../renderer'), dev: false }
}

/** The app:// scheme's privileges; Electron takes them only before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])
}

/** Serves the built renderer on app://bookdrop/ (shell/app-protocol.ts decides every answer). */
export function serveAppScheme(app: AppLocation): void {
  const rendererDir = app.rendererDir
  if (!rendererDir) return
  const policy = contentSecurityPolicy({ dev: false })
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = await answerAppRequest(request.url, rendererDir, policy, request.method)
    const body = typeof answer.body === 'string' ? answer.body : new Uint8Array(answer.body)
    return new Response(body, { status: answer.status, headers: answer.headers })
  })
}

export const preloadPath = (): string => join(here, '../preload/index.cjs')

/**
 * Session-wide guards: the CSP header on every response, and permissions denied by default.
 * Call once, before any window loads.
 */
export function hardenSession(ses: Session, app: AppLocation): void {
  const devServerOrigin = app.dev ? new URL(app.url).origin : undefined
  const policy = contentSecurityPolicy({ dev: app.dev, ...(devServerOrigin ? { devServerOrigin } : {}) })
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCspHeader(details.responseHeaders, policy) })
  })
  ses.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(
      allowPermission(permission, {
        requestingUrl: details.requestingUrl,
        isMainFrame: details.isMainFrame,
        appUrl: app.url,
      }),
    )
  })
  ses.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) =>
    allowPermission(permission, {
      requestingUrl: details.requestingUrl ?? requestingOrigin,
      isMainFrame: details.isMainFrame,
      appUrl: app.url,
    }),
  )
  // No device pickers: the app never asks for HID, serial, USB or Bluetooth devices.
  ses.setDevicePermissionHandler(() => false)
  ses.on('select-hid-device', (event, _details, callback) => {
    event.preventDefault()
    callback('')
  })
  ses.on('select-serial-port', (event, _ports, _contents, callback) => {
    event.preventDefault()
    callback('')
  })
  ses.on('select-usb-device', (event, _details, callback) => {
    event.preventDefault()
    callback()
  })
  ses.on('will-download', (event) => event.preventDefault())
}

/**
 * Guards for every webContents the app ever creates (installed from app 'web-contents-created'):
 * no <webview>, no navigation away from the app's page, no new windows; https links go to the
 * user's browser through the vetted opener.
 */
export function hardenWebContents(
  contents: WebContents,
  app: AppLocation,
  openExternal: (url: string) => void,
): void {
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, app.url, { allowInApp: false }) === 'open-external') openExternal(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => {
    const decision = decideNavigation(event.url, app.url, { allowInApp: true })
    if (decision === 'allow') return
    event.preventDefault()
    if (decision === 'open-external') openExternal(event.url)
  })
  // Sub-frames (the app has none) and redirects: stay on the app's page or go nowhere.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && decideNavigation(event.url, app.url, { allowInApp: true }) !== 'allow')
      event.preventDefault()
  })
  contents.on('will-redirect', (event) => {
    if (decideNavigation(event.url, app.url, { allowInApp: true }) !== 'allow') event.preventDefault()
  })
}

/** Work areas of the displays, primary first (what fitWindowState expects). */
function workAreas(): Rect[] {
  const primary = screen.getPrimaryDisplay()
  return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea)
}

export interface MainWindowOptions {
  app: AppLocation
  /** A packaged build: no DevTools. */
  packaged: boolean
  dataDir: string
  /** Start hidden in the tray (launched at login). */
  hidden: boolean
  /** On close: true to hide the window instead (close to tray). */
  hideOnClose: () => boolean
  /** The window was shown or focused. */
  onShown: () => void
}

/** The one window: hardened webPreferences, bounds remembered in <dataDir>/window-state.json. */
export async function createMainWindow(opts: MainWindowOptions): Promise<BrowserWindow> {
  const placed = fitWindowState(await loadWindowState(opts.dataDir), workAreas(), DEFAULT_WINDOW)
  const win = new BrowserWindow({
    x: placed.x,
    y: placed.y,
    width: placed.width,
    height: placed.height,
    minWidth: DEFAULT_WINDOW.minWidth,
    minHeight: DEFAULT_WINDOW.minHeight,
    show: false,
    title: 'Bookdrop',
    backgroundColor: '#00000000',
    webPreferences: {
      preload: preloadPath(),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // DevTools only while developing; a packaged app has no way to open them.
      devTools: !opts.packaged,
      // No middle-click: it would open links and paste selections in ways the app never asks for.
      disableBlinkFeatures: 'Auxclick',
    },
  })
  if (placed.maximized) win.maximize()
  win.once('ready-to-show', () => {
    if (!opts.hidden) win.show()
  })
  win.on('show', opts.onShown)
  win.on('focus', opts.onShown)

  // Remember where the window is: on changes (debounced) and when it closes.
  let saveTimer: ReturnType<typeof setTimeout> | null = null
  const save = (): void => {
    if (saveTimer) clearTimeout(saveTimer)
    saveTimer = null
    if (win.isDestroyed() || win.isMinimized() || win.isFullScreen()) return
    const b = win.isMaximized() ? win.getNormalBounds() : win.getBounds()
    void saveWindowState(opts.dataDir, { ...b, maximized: win.isMaximized() }).catch(() => {})
  }
  const saveSoon = (): void => {
    if (saveTimer) clearTimeout(saveTimer)
    saveTimer = setTimeout(save, 500)
  }
  win.on('resize', saveSoon)
  win.on('move', saveSoon)
  win.on('maximize', saveSoon)
  win.on('unmaximize', saveSoon)

  win.on('close', (event) => {
    save()
    if (opts.hideOnClose()) {
      event.preventDefault()
      win.hide()
    }
  })

  // A page that fails to load (a dev server not up yet) still leaves a window that can be reloaded.
  await win.loadURL(opts.app.url).catch((e: unknown) => console.error('Bookdrop: the window could not load its page:', e))
  return win
}

/** Brings the window back from the tray, the dock, a second launch or a notification. */
export function revealWindow(win: BrowserWindow | null): void {
  if (!win || win.isDestroyed()) return
  if (win.isMinimized()) win.restore()
  win.show()
  win.focus()
}

/**
 * The application menu. macOS needs one for the standard shortcuts (copy, paste, quit, hide);
 * elsewhere the window has none in a packaged app (no reload or devtools shortcuts for users).
 * The renderer handles Ctrl/Cmd+O itself; the contract has no menu event, so no File menu here.
 */
export function installAppMenu(isPackaged: boolean): void {
  if (process.platform === 'darwin') {
    Menu.setApplicationMenu(
      Menu.buildFromTemplate([
        { role: 'appMenu' },
        { role: 'editMenu' },
        ...(isPackaged ? [] : [{ role: 'viewMenu' as const }]),
        { role: 'windowMenu' },
      ]),
    )
  } else if (isPackaged) {
    Menu.setApplicationMenu(null)
  }
}
