/**
 * Intake requests, one builder for each way a file comes in: a watched folder's file (found by its
 * watcher, or taken again), a row's file taken again, and a file dropped or given on the command line.
 */
import { basename, dirname } from 'node:path'
import type { AiTarget } from '../../../schemas'
import {
  DEFAULT_PROMPTS,
  type FolderConfig,
  type FolderStore,
  destinationDir,
  renderPrompt,
} from '../folders'
import { type IntakeRequest, rowName } from '../intake/intake'
import { allowedKinds } from '../kinds'
import { printable } from '../names'
import type { Upload } from '../store/uploads'
import { realPathOf } from '../watch/inside'

export type AddFilesOptions = {
  profileId: string
  target: AiTarget
  prompt?: string
  processType?: 'async' | 'direct'
}

/** The intake request of a folder's file; `root`: the folder's real path, where the file must lie. */
export function folderRequest(
  f: FolderConfig,
  path: string,
  root: string | null,
  maxFileBytes: number,
): IntakeRequest {
  return {
    profileId: f.profileId,
    target: f.target,
    prompt: renderPrompt(f.promptTemplate, { filename: rowName(path), folder: printable(basename(f.path)) }),
    processType: f.processType,
    source: 'watch',
    folderId: f.id,
    path,
    acceptedKinds: f.acceptedKinds,
    maxFileBytes,
    afterUpload: f.afterUpload,
    destinationDir: destinationDir(f),
    root,
  }
}

/** A folder's file taken again (not from its watcher): the folder's real path now. */
export async function folderRequestNow(
  f: FolderConfig,
  path: string,
  maxFileBytes: number,
): Promise<IntakeRequest> {
  const root = await realPathOf(f.path).catch(() => f.path)
  return folderRequest(f, path, root, maxFileBytes)
}

/** The intake request for a row's file now: its folder's settings when it has one, else the row's. */
export async function rowRequest(
  row: Upload,
  folders: FolderStore,
  maxFileBytes: number,
): Promise<IntakeRequest> {
  const folder = row.folderId ? folders.get(row.folderId) : undefined
  if (folder) return folderRequestNow(folder, row.path, maxFileBytes)
  return {
    profileId: row.profileId,
    target: row.target,
    prompt: row.prompt,
    processType: row.processType,
    source: row.source,
    folderId: null,
    path: row.path,
    acceptedKinds: allowedKinds(row.target),
    maxFileBytes,
    afterUpload: row.afterUpload,
    destinationDir: row.archiveDir,
    root: null,
  }
}

/** The intake request of a file dropped, picked, sent from a phone or given on the command line. */
export function addedFileRequest(
  path: string,
  o: AddFilesOptions & { source?: 'drop' | 'cli' | 'phone' },
  maxFileBytes: number,
): IntakeRequest {
  return {
    profileId: o.profileId,
    target: o.target,
    prompt: renderPrompt(o.prompt?.trim() || DEFAULT_PROMPTS[o.target], {
      filename: rowName(path),
      folder: printable(basename(dirname(path))),
    }),
    processType: o.processType ?? 'async',
    source: o.source ?? 'drop',
    folderId: null,
    path,
    acceptedKinds: allowedKinds(o.target),
    maxFileBytes,
    afterUpload: 'leave',
    destinationDir: null,
    root: null,
  }
}
