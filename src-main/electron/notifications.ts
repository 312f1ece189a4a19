// Native notifications for what shell/notify.ts batches. Clicking one opens the window.
import { Notification } from 'electron'
import type { ShellNotification } from '../shell/notify'

/** Notifications still on screen: kept referenced so their click handlers survive garbage collection. */
const live = new Set<Notification>()

export function showNativeNotification(n: ShellNotification, onClick: () => void): void {
  if (!Notification.isSupported()) return
  const note = new Notification({
    title: n.title,
    body: n.body,
    silent: n.kind === 'completed',
    urgency: n.kind === 'attention' ? 'normal' : 'low',
  })
  live.add(note)
  const forget = (): void => {
    live.delete(note)
  }
  note.on('click', () => {
    forget()
    onClick()
  })
  note.on('close', forget)
  note.on('failed', forget)
  note.show()
}
