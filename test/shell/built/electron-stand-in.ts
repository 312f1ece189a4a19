/** The stand-in's parts as named exports, the way the built bundle imports them from 'electron'. */
import { electronModule } from '../fake-electron'

const m = electronModule() as Record<string, never>
export const {
  app,
  BrowserWindow,
  Tray,
  Notification,
  Menu,
  nativeImage,
  screen,
  session,
  ipcMain,
  shell,
  dialog,
  protocol,
  net,
  powerMonitor,
} = m
export default m
