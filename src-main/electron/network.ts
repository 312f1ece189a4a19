/**
 * The desktop app's network, from the OS (issue 22), kept thin: the proxy of a URL as Chromium
 * resolves it (the OS's proxy settings and PAC file, the way VS Code does), and the OS's word on
 * being online. Everything that acts on them is plain Node (core/api/network.ts, the queue).
 */
import { net, powerMonitor, session } from 'electron'

/** The OS's proxy for `url` as a PAC result ("PROXY host:port; DIRECT"). */
export function systemProxy(url: string): Promise<string> {
  return session.defaultSession.resolveProxy(url)
}

/** How often the OS is asked whether it is online (Electron's main process has no event for it). */
export const ONLINE_CHECK_MS = 5000

/**
 * Calls `changed(online)` when the OS says the network went away or came back, and `changed(true)`
 * when the computer wakes up or is unlocked (a new network is likely: what waited goes now).
 * Returns the function that stops watching.
 */
export function watchNetwork(changed: (online: boolean) => void): () => void {
  let online = net.isOnline()
  const look = (): void => {
    const now = net.isOnline()
    if (now !== online) {
      online = now
      changed(now)
    }
  }
  const woke = (): void => {
    online = net.isOnline()
    changed(online)
  }
  const timer = setInterval(look, ONLINE_CHECK_MS)
  timer.unref()
  powerMonitor.on('resume', woke)
  powerMonitor.on('unlock-screen', woke)
  return () => {
    clearInterval(timer)
    powerMonitor.off('resume', woke)
    powerMonitor.off('unlock-screen', woke)
  }
}
