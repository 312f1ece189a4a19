/** The calls of watched folders. */
import { z } from 'zod'
import type { FolderView } from '../views'
import { id, none, target } from './shared'

const folderFields = z.object({
  profileId: z.string(),
  path: z.string(),
  target,
  promptTemplate: z.string().optional(),
  recursive: z.boolean().optional(),
  acceptedKinds: z.array(z.string()).optional(),
  usePolling: z.boolean().optional(),
  afterUpload: z.enum(['leave', 'move', 'archive']).optional(),
  archiveDir: z.string().nullable().optional(),
  takeExisting: z.boolean().optional(),
  enabled: z.boolean().optional(),
  processType: z.enum(['async', 'direct']).optional(),
})

export const FOLDER_CALLS = {
  listFolders: none,
  addFolder: folderFields,
  updateFolder: z.object({ id, patch: folderFields.partial() }),
  removeFolder: z.object({ id }),
  pickDirectory: none,
} as const

export interface FolderCalls {
  listFolders: FolderView[]
  addFolder: FolderView
  updateFolder: FolderView
  removeFolder: FolderView[]
  pickDirectory: { path: string | null }
}
