/**
 * The uploads room: files the person gives (paths from a drop or the open dialog on the desktop,
 * bytes in the browser), the history, retry and cancel, the CSV export and "show in folder".
 */
import { coded } from '../../../contract/coded'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, isAbsolute, join } from 'node:path'
import type { AiTarget } from '../../../schemas'
import type { Calls, IntakeOutcome, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import type { IntakeResult } from '../intake/intake'
import { type UploadView, toUploadView } from '../store/uploads'
import { numberedStoredName, printable, storedName } from '../names'
import { NoFreeNameError, createAtFreeName, errnoCode, localDay } from '../util'
import { type AppContext, isBusinessKind } from './context'
import type { Room } from './room'

/** Why a file could not be saved, in words, without any path (the data folder's is nobody's business). */
function saveFailure(e: unknown): string {
  switch (errnoCode(e)) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full'
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return "Bookdrop may not write in its data folder"
    case 'ENAMETOOLONG':
      return 'its name is too long'
    case 'EMFILE':
    case 'ENFILE':
      return 'too many files are open: try again'
    default:
      return e instanceof NoFreeNameError
        ? `there are ${e.tried.toLocaleString('en')} files of that name today already`
        : `it could not be written (${errnoCode(e) ?? 'error'})`
  }
}

/** "name.ext", "name (2).ext"… within the stored-name length, up to MAX_NUMBERED. */
function* storedNames(name: string): Generator<string> {
  for (let n = 1; n <= MAX_NUMBERED; n++) yield numberedStoredName(name, n)
}

/** Writes `bytes` as `name` in `dir`, or "name (2).ext", "name (3).ext"… never replacing a file. */
async function writeUnique(dir: string, name: string, bytes: Buffer): Promise<string> {
  return createAtFreeName(dir, storedNames(name), (path) => writeFile(path, bytes, { flag: 'wx', mode: 0o600 }))
}

/** "name (2).ext" … up to this many of one name a day. */
const MAX_NUMBERED = 10_000

/** A file given as bytes, saved (its path) or not (its stored name and why, for the person). */
export type Saved = { ok: true; path: string } | { ok: false; name: string; message: string }

/** What other rooms (the demo's samples) do with files as a drop would. */
export interface UploadsHelpers {
  /**
   * Writes files sent as bytes under <dataDir>/dropped/<date>/, each under its stored name
   * (names.ts), numbered when taken. One that cannot be written does not stop the others.
   */
  writeDropped(files: { name: string; base64: string }[]): Promise<Saved[]>
  /** Hands files to the engine for the active business, as a drop. */
  addPaths(
    paths: string[],
    o: { target: AiTarget; prompt?: string; processType?: 'async' | 'direct' },
  ): Promise<IntakeOutcome[]>
  /** writeDropped, then addPaths for the files saved; each file's outcome in its place. */
  addDropped(
    files: { name: string; base64: string }[],
    o: { target: AiTarget; prompt?: string; processType?: 'async' | 'direct' },
  ): Promise<IntakeOutcome[]>
}

export function uploadsHelpers(ctx: AppContext): UploadsHelpers {
  const outcomes = (results: IntakeResult[], paths: string[]): IntakeOutcome[] =>
    results.map((r, i) =>
      r.kind === 'ignored'
        ? { kind: 'ignored', why: r.why, path: paths[i] ?? '' }
        : { kind: r.kind, upload: ctx.engine.uploads.view(r.upload) },
    )
  const helpers: UploadsHelpers = {
    async writeDropped(files) {
      const dir = join(ctx.dataDir, 'dropped', localDay())
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const saved: Saved[] = []
      for (const f of files) {
        const name = storedName(f.name)
        try {
          saved.push({ ok: true, path: await writeUnique(dir, name, Buffer.from(f.base64, 'base64')) })
        } catch (e) {
          saved.push({ ok: false, name, message: `${name} could not be saved: ${saveFailure(e)}.` })
        }
      }
      return saved
    },
    async addPaths(paths, o) {
      const { profile } = ctx.activeBusiness()
      const results = await ctx.engine.addFiles(paths, {
        profileId: profile.id,
        target: o.target,
        prompt: o.prompt,
        processType: o.processType,
        source: 'drop',
      })
      return outcomes(results, paths)
    },
    async addDropped(files, o) {
      const saved = await helpers.writeDropped(files)
      const paths = saved.flatMap((s) => (s.ok ? [s.path] : []))
      const taken = paths.length > 0 ? await helpers.addPaths(paths, o) : []
      let next = 0
      return saved.map(
        (s): IntakeOutcome => (s.ok ? taken[next++]! : { kind: 'ignored', why: 'not_saved', path: s.name, message: s.message }),
      )
    },
  }
  return helpers
}

export type UploadsRoom = Room<
  | 'addFiles'
  | 'addFileContents'
  | 'uploadBankStatement'
  | 'history'
  | 'retryUpload'
  | 'cancelUpload'
  | 'retryFailed'
  | 'exportHistory'
  | 'showSourceFile'
>

export function uploadsRoom(ctx: AppContext, files: UploadsHelpers): UploadsRoom {
  return {
    async addFiles(req: ParsedReq<'addFiles'>): Promise<IntakeOutcome[]> {
      if (ctx.host === 'web') {
        // In a browser the page sends files as bytes (addFileContents); a path it sends is not the
        // person's choice, so nothing here reads one.
        throw new AppError(
          'path_not_allowed',
          'In the browser, add files by dropping them on the window or choosing them with Add files: Bookdrop does not read a file from a path the page sends.',
        )
      }
      const relative = req.paths.findIndex((p) => !isAbsolute(p))
      if (relative >= 0) {
        throw new AppError('invalid_request', `paths.${relative}: give the full path of the file.`, {
          [`paths.${relative}`]: 'must be an absolute path',
        })
      }
      const refused = req.paths.findIndex((p) => !ctx.grants.isFileGranted(p))
      if (refused >= 0) {
        throw new AppError(
          'path_not_allowed',
          `${req.paths[refused]} was not dropped on Bookdrop or chosen in its open dialog in the last few minutes: drop the file on the window again, or choose it with Add files.`,
          { [`paths.${refused}`]: 'drop or choose this file again' },
        )
      }
      return files.addPaths(req.paths, req)
    },

    async addFileContents(req: ParsedReq<'addFileContents'>): Promise<IntakeOutcome[]> {
      ctx.activeBusiness() // refuse before writing anything
      return files.addDropped(req.files, req)
    },

    async uploadBankStatement(req: ParsedReq<'uploadBankStatement'>): Promise<IntakeOutcome[]> {
      ctx.activeBusiness()
      return files.addDropped(req.files, { target: 'bank-transactions', prompt: req.prompt })
    },

    async history(req: ParsedReq<'history'>): Promise<Calls['history']> {
      const page = ctx.engine.history(req)
      const removed = await ctx.engine.copies.removed(page.rows)
      // A possible duplicate's row names the receipt it looks like (issue 33: engine.uploads.view).
      const rows = page.rows.map((r) => (removed.has(r.id) ? { ...ctx.engine.uploads.view(r), localCopyRemoved: true } : ctx.engine.uploads.view(r)))
      return { rows, total: page.total }
    },

    async retryUpload(req: ParsedReq<'retryUpload'>): Promise<UploadView> {
      return ctx.engine.uploads.view(await ctx.engineAction('not_retryable', () => ctx.engine.retry(req.id)))
    },

    async cancelUpload(req: ParsedReq<'cancelUpload'>): Promise<UploadView> {
      return toUploadView(await ctx.engineAction('not_cancellable', () => ctx.engine.cancel(req.id)))
    },

    async retryFailed(): Promise<Calls['retryFailed']> {
      const e = ctx.active ? ctx.entry(ctx.active) : undefined
      const profileId = e && isBusinessKind(e.profile) ? e.profile.id : undefined
      return { retried: await ctx.engine.retryFailed(profileId) }
    },

    async exportHistory(req: ParsedReq<'exportHistory'>): Promise<Calls['exportHistory']> {
      const name = `history-${new Date().toISOString().replace(/[:.]/g, '-')}.csv`
      let path: string
      if (ctx.shell.chooseExportPath) {
        const chosen = await ctx.shell.chooseExportPath(name)
        if (!chosen) return { path: null, rows: 0, downloadUrl: null }
        path = chosen
      } else {
        const dir = join(ctx.dataDir, 'exports')
        await mkdir(dir, { recursive: true, mode: 0o700 })
        path = join(dir, name)
      }
      const rows = await ctx.engine.exportCsv(req.filter, path)
      const downloadUrl = ctx.shell.chooseExportPath
        ? null
        : (ctx.shell.downloadUrl?.(basename(path)) ?? `/api/download/${encodeURIComponent(basename(path))}`)
      return { path, rows, downloadUrl }
    },

    async showSourceFile(req: ParsedReq<'showSourceFile'>): Promise<Calls['showSourceFile']> {
      const row = ctx.engine.uploads.get(req.id)
      if (!row) throw new AppError('not_found', { ...coded(E.uploadNotFound), text: `There is no upload #${req.id}.` })
      const path = row.movedTo || row.path
      // The path as a person may read it (a name that is not UTF-8 shows its bytes escaped).
      return { shown: await ctx.shell.showItemInFolder(path), path: printable(path) }
    },
  }
}
