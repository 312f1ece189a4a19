/** The folders room: watched folders (the engine checks the folder rules) and the folder picker. */
import { coded } from '../../../contract/coded'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import { FOLDER_ERRORS } from '../../../contract/main-states'
import type { Calls, FolderView, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import { type AppContext, isBusinessKind } from './context'
import type { Room } from './room'

export type FoldersRoom = Room<'listFolders' | 'addFolder' | 'updateFolder' | 'removeFolder' | 'pickDirectory'>

export function foldersRoom(ctx: AppContext): FoldersRoom {
  const folderView = (id: string): FolderView => {
    const f = ctx.engine.listFolders().find((x) => x.id === id)
    if (!f) throw new AppError('not_found', coded(E.folderNotWatched))
    return f
  }
  const mustExist = (id: string): void => {
    if (!ctx.engine.folders.get(id)) throw new AppError('not_found', coded(E.folderNotWatched))
  }
  const checkProfile = (profileId: string): void => {
    const e = ctx.entry(profileId)
    if (!e)
      throw new AppError('invalid_request', 'Choose the profile (business) this folder uploads to.', {
        profileId: 'no such profile',
      })
    if (!isBusinessKind(e.profile)) {
      throw new AppError(
        'wrong_profile_kind',
        coded(FOLDER_ERRORS.partnerProfile, { name: e.profile.name }),
        { profileId: 'choose a business profile' },
      )
    }
  }

  return {
    async listFolders(): Promise<FolderView[]> {
      return ctx.engine.listFolders()
    },

    async addFolder(req: ParsedReq<'addFolder'>): Promise<FolderView> {
      checkProfile(req.profileId)
      const f = await ctx.engineAction('folder_exists', () => ctx.engine.addFolder(req))
      return folderView(f.id)
    },

    async updateFolder(req: ParsedReq<'updateFolder'>): Promise<FolderView> {
      mustExist(req.id)
      if (req.patch.profileId !== undefined) checkProfile(req.patch.profileId)
      const f = await ctx.engineAction('not_found', () => ctx.engine.updateFolder(req.id, req.patch))
      return folderView(f.id)
    },

    async removeFolder(req: ParsedReq<'removeFolder'>): Promise<FolderView[]> {
      mustExist(req.id)
      await ctx.engine.removeFolder(req.id)
      return ctx.engine.listFolders()
    },

    async pickDirectory(): Promise<Calls['pickDirectory']> {
      const path = await ctx.shell.pickDirectory()
      if (path) ctx.grants.grantDirectory(path)
      return { path }
    },
  }
}
