// The tray icon: renders the TrayView that shell/controller.ts derives (icon, tooltip, menu),
// and reports clicks and macOS file drops back. No decisions here.
import { Menu, Tray, nativeImage, type NativeImage } from 'electron'
import { trayIconPng, trayIconSize } from '../shell/tray-icons'
import type { TrayKind, TrayView } from '../shell/tray-state'

export interface TrayActions {
  open(): void
  pause(): void
  resume(): void
  quit(): void
  /** Files dropped on the icon (macOS only). */
  dropFiles(paths: string[]): void
}

function iconFor(kind: TrayKind): NativeImage {
  const size = trayIconSize(process.platform)
  const image = nativeImage.createFromBuffer(trayIconPng(kind, size), { scaleFactor: 1 })
  image.addRepresentation({ scaleFactor: 2, buffer: trayIconPng(kind, size * 2) })
  return image
}

export class ShellTray {
  private readonly tray: Tray
  private readonly icons = new Map<TrayKind, NativeImage>()
  private kind: TrayKind | null = null

  constructor(
    private readonly actions: TrayActions,
    initial: TrayView,
  ) {
    this.tray = new Tray(this.icon(initial.kind))
    // Windows and most Linux panels: a click opens the window; the menu is on right-click.
    this.tray.on('click', () => actions.open())
    this.tray.on('drop-files', (_event, files) => {
      if (files.length > 0) actions.dropFiles(files)
    })
    this.render(initial)
  }

  render(view: TrayView): void {
    if (this.tray.isDestroyed()) return
    if (view.kind !== this.kind) {
      this.tray.setImage(this.icon(view.kind))
      this.kind = view.kind
    }
    this.tray.setToolTip(view.tooltip)
    if (process.platform === 'darwin') this.tray.setTitle(view.title)
    this.tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: view.status, enabled: false },
        { type: 'separator' },
        { label: view.openLabel, click: () => this.actions.open() },
        {
          label: view.pauseLabel,
          enabled: view.pauseEnabled,
          click: () => (view.pauseAction === 'pause' ? this.actions.pause() : this.actions.resume()),
        },
        { type: 'separator' },
        { label: view.quitLabel, click: () => this.actions.quit() },
      ]),
    )
  }

  destroy(): void {
    if (!this.tray.isDestroyed()) this.tray.destroy()
  }

  private icon(kind: TrayKind): NativeImage {
    let image = this.icons.get(kind)
    if (!image) this.icons.set(kind, (image = iconFor(kind)))
    return image
  }
}
