import { bookdrop } from '../lib/bridge'
import { settle } from '../lib/result'
import type { Events, FolderView, Req, Result } from '../lib/types'
import type { SliceCreator } from './types'

export interface FoldersSlice {
  folders: FolderView[]
  foldersLoaded: boolean
  foldersError: string | null
  loadFolders(): Promise<void>
  addFolder(req: Req<'addFolder'>): Promise<Result<FolderView>>
  updateFolder(id: string, patch: Req<'updateFolder'>['patch']): Promise<Result<FolderView>>
  removeFolder(id: string): Promise<Result<FolderView[]>>
  applyFolderEvent(e: Events['folder']): void
}

export const createFoldersSlice: SliceCreator<FoldersSlice> = (set, get) => ({
  folders: [],
  foldersLoaded: false,
  foldersError: null,

  loadFolders: async () => {
    const r = await settle(bookdrop.listFolders({}))
    if (r.ok) set({ folders: r.value, foldersLoaded: true, foldersError: null })
    else set({ foldersLoaded: true, foldersError: r.error.message })
  },

  addFolder: async (req) => {
    const r = await settle(bookdrop.addFolder(req))
    if (r.ok) {
      set((s) => ({ folders: [...s.folders.filter((f) => f.id !== r.value.id), r.value] }))
      get().toast('success', `Watching ${r.value.path}.`)
    }
    return r
  },

  updateFolder: async (id, patch) => {
    const r = await settle(bookdrop.updateFolder({ id, patch }))
    if (r.ok) set((s) => ({ folders: s.folders.map((f) => (f.id === id ? r.value : f)) }))
    return r
  },

  removeFolder: async (id) => {
    const r = await settle(bookdrop.removeFolder({ id }))
    if (r.ok) set({ folders: r.value })
    else get().toast('error', r.error.message)
    return r
  },

  applyFolderEvent: (e) =>
    set((s) => {
      const i = s.folders.findIndex((f) => f.id === e.folderId)
      if (i < 0) {
        // A folder this window has not seen yet (added elsewhere): load the list once.
        if (s.foldersLoaded) void get().loadFolders()
        return s
      }
      const folders = s.folders.slice()
      folders[i] = { ...folders[i]!, state: e.state, message: e.message }
      return { folders }
    }),
})
