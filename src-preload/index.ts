// Sandboxed preload (CommonJS, see electron.vite.config.ts): exposes exactly one object,
// window.bookdrop, built from the contract's list of calls. No open invoke(anyChannel).
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron'
import {
  type BookdropApi,
  CALL_NAMES,
  type CallName,
  EVENT_CHANNEL,
  type EventName,
  GRANT_FILE_CHANNEL,
  type Events,
  callChannel,
} from '../contract'

declare const __BOOKDROP_VERSION__: string

type Listener = (payload: unknown) => void
const listeners = new Map<EventName, Set<Listener>>()

ipcRenderer.on(EVENT_CHANNEL, (_e: IpcRendererEvent, msg: { name: EventName; payload: unknown }) => {
  for (const fn of listeners.get(msg.name) ?? []) fn(msg.payload)
})

const calls = Object.fromEntries(
  CALL_NAMES.map((name: CallName) => [
    name,
    (req: unknown) => ipcRenderer.invoke(callChannel(name), req ?? {}),
  ]),
)

const bookdrop = Object.freeze({
  ...calls,
  version: __BOOKDROP_VERSION__,
  pathForFile: (file: File): string => {
    let path = ''
    try {
      path = webUtils.getPathForFile(file)
    } catch {
      return ''
    }
    // Only a real file the person dropped or picked has a path: tell main it may read this one.
    if (path) ipcRenderer.send(GRANT_FILE_CHANNEL, path)
    return path
  },
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void {
    let set = listeners.get(name)
    if (!set) listeners.set(name, (set = new Set()))
    const fn = listener as Listener
    set.add(fn)
    return () => set.delete(fn)
  },
}) as BookdropApi

contextBridge.exposeInMainWorld('bookdrop', bookdrop)
