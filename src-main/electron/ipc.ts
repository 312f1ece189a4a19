/**
 * IPC for the desktop app, built from the contract: one `ipcMain.handle` per call of CALL_NAMES (no
 * open channel), each checking that the sender is the app's own page in a window's main frame before
 * anything runs, then handing the payload to `dispatch` (validation, errors). Service events go to
 * the app's windows on the one EVENT_CHANNEL. The only file of this kind that imports electron.
 */
import { BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent, ipcMain } from 'electron'
import { CALL_NAMES, EVENT_CHANNEL, GRANT_FILE_CHANNEL, type Result, callChannel } from '../../contract'
import type { AppService } from '../core/app-service'
import { TOO_LARGE, dispatch, payloadTooLarge } from '../core/bridge'
import { isTrustedSender } from '../core/security'

const REFUSED: Result<never> = {
  ok: false,
  error: {
    code: 'forbidden_sender',
    message: 'This request did not come from the Bookdrop window and was refused.',
  },
}

/** The sender is the main frame of its window (not an iframe) and shows the app's own page. */
function fromAppMainFrame(event: IpcMainInvokeEvent | IpcMainEvent, appUrl: string): boolean {
  const frame = event.senderFrame
  if (!frame || frame.parent !== null) return false
  const main = event.sender.mainFrame
  if (frame.processId !== main.processId || frame.frameToken !== main.frameToken) return false
  return isTrustedSender(frame.url, appUrl)
}

/**
 * Registers every call of the contract, and forwards service events to the app's windows.
 * `getMainFrameUrl` returns the URL the main window loads (dev server or file:// of index.html).
 * Returns a function that removes the handlers and the event subscription.
 */
export function registerIpc(service: AppService, getMainFrameUrl: () => string): () => void {
  // A dropped or picked file's path, from the preload (see GRANT_FILE_CHANNEL). Same sender check.
  const grant = (event: IpcMainEvent, path: unknown): void => {
    if (!fromAppMainFrame(event, getMainFrameUrl())) return
    if (typeof path === 'string' && path.length <= 4096) service.grantFiles([path])
  }
  ipcMain.on(GRANT_FILE_CHANNEL, grant)
  for (const name of CALL_NAMES) {
    ipcMain.handle(callChannel(name), (event, req: unknown) => {
      if (!fromAppMainFrame(event, getMainFrameUrl())) return REFUSED
      if (payloadTooLarge(name, req)) return { ok: false, error: TOO_LARGE } satisfies Result<never>
      return dispatch(service, name, req)
    })
  }
  const off = service.onEvent((name, payload) => {
    const appUrl = getMainFrameUrl()
    for (const win of BrowserWindow.getAllWindows()) {
      if (win.isDestroyed() || win.webContents.isDestroyed()) continue
      if (!isTrustedSender(win.webContents.mainFrame.url, appUrl)) continue
      win.webContents.send(EVENT_CHANNEL, { name, payload })
    }
  })
  return () => {
    off()
    ipcMain.removeListener(GRANT_FILE_CHANNEL, grant)
    for (const name of CALL_NAMES) ipcMain.removeHandler(callChannel(name))
  }
}
