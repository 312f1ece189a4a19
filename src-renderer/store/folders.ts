import { bookdrop } from '../lib/bridge'
import { settle } from '../lib/result'
import { getIntl } from '../lib/i18n'
import { defineMessages } from 'react-intl'
import type { Events, FolderView, Req, Result } from '../lib/types'
import type { LoadedList, SliceCreator } from './types'
import messages from './folders.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

export interface FoldersSlice extends LoadedList<'folders', 'folders', FolderView> {
  addFolder(req: Req<'addFolder'>): Promise<Result<FolderView>>
  updateFolder(id: string, patch: Req<'updateFolder'>['patch']): Promise<Result<FolderView>>
  removeFolder(id: string): Promise<Result<FolderView[]>>
  applyFolderEvent(e: Events['folder']): void
}

export const createFoldersSlice: SliceCreator<FoldersSlice> = (set, get) => {
  /**
   * A folder's status comes both in call answers (a snapshot) and as events, on two connections
   * with no order between them: a folder just added answers "starting" while its "watching" event
   * may already be here. Every status change makes an event, so an event received after a call was
   * sent is at least as new as that call's snapshot, and wins over it.
   */
  const latest = new Map<
    string,
    { seq: number; state: FolderView['state']; message: string | null; messageCoded: FolderView['messageCoded'] }
  >()
  let seq = 0
  const withLatest = (folders: FolderView[], since: number): FolderView[] =>
    folders.map((f) => {
      const e = latest.get(f.id)
      return e && e.seq > since ? { ...f, state: e.state, message: e.message, messageCoded: e.messageCoded } : f
    })
  return {
    folders: [],
    foldersLoaded: false,
    foldersError: null,

    loadFolders: async () => {
      const since = seq
      const r = await settle(bookdrop.listFolders({}))
      if (r.ok) set({ folders: withLatest(r.value, since), foldersLoaded: true, foldersError: null })
      else set({ foldersLoaded: true, foldersError: r.error.message })
    },

    addFolder: async (req) => {
      const since = seq
      const r = await settle(bookdrop.addFolder(req))
      if (r.ok) {
        const [added] = withLatest([r.value], since)
        set((s) => ({ folders: [...s.folders.filter((f) => f.id !== r.value.id), added!] }))
        get().toast('success', getIntl().formatMessage(m.watching, { path: r.value.path }))
      }
      return r
    },

    updateFolder: async (id, patch) => {
      const since = seq
      const r = await settle(bookdrop.updateFolder({ id, patch }))
      if (r.ok) {
        const [updated] = withLatest([r.value], since)
        set((s) => ({ folders: s.folders.map((f) => (f.id === id ? updated! : f)) }))
      }
      return r
    },

    removeFolder: async (id) => {
      const since = seq
      const r = await settle(bookdrop.removeFolder({ id }))
      if (r.ok) set({ folders: withLatest(r.value, since) })
      else get().toast('error', r.error.message)
      return r
    },

    applyFolderEvent: (e) => {
      latest.set(e.folderId, { seq: ++seq, state: e.state, message: e.message, messageCoded: e.messageCoded ?? null })
      set((s) => {
        const i = s.folders.findIndex((f) => f.id === e.folderId)
        if (i < 0) {
          // A folder this window has not seen yet (added elsewhere): load the list once.
          if (s.foldersLoaded) void get().loadFolders()
          return s
        }
        const folders = s.folders.slice()
        folders[i] = { ...folders[i]!, state: e.state, message: e.message, messageCoded: e.messageCoded ?? null }
        return { folders }
      })
    },
  }
}
