/**
 * The uploads room: files the person gives (paths from a drop or the open dialog on the desktop,
 * bytes in the browser), the history, retry and cancel, the CSV export and "show in folder".
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, extname, isAbsolute, join } from 'node:path'
import type { AiTarget } from '../../../schemas'
import type { Calls, IntakeOutcome, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import type { IntakeResult } from '../intake/intake'
import { type UploadView, toUploadView } from '../store/uploads'
import { errnoCode, numberedNames } from '../util'
import { type AppContext, isBusinessKind } from './context'
import type { Room } from './room'

function localDate(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/**
 * A file name that is safe to create in one directory: no path separators, no `..`, no leading dot,
 * no control or reserved characters, not a Windows device name, at most 180 characters (extension kept).
 */
export function sanitizeFileName(raw: string): string {
  let n = raw.normalize('NFC')
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  n = n.replace(/[\u0000-\u001f\u007f]/g, '')
  n = n.replace(/[\\/]/g, '_').replace(/[<>:"|?*]/g, '_')
  n = n.replace(/\.{2,}/g, '.')
  n = n
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(n)) n = `_${n}`
  if (n === '') n = 'file'
  if (n.length > 180) {
    const ext = extname(n).slice(0, 20)
    n = n.slice(0, 180 - ext.length) + ext
  }
  return n
}

/** Writes `bytes` as `name` in `dir`, or "name (2).ext", "name (3).ext"… never replacing a file. */
async function writeUnique(dir: string, name: string, bytes: Buffer): Promise<string> {
  for (const n of numberedNames(name)) {
    const candidate = join(dir, n)
    try {
      await writeFile(candidate, bytes, { flag: 'wx', mode: 0o600 })
      return candidate
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw e
    }
  }
  throw new AppError('internal', `Could not find a free file name for ${name} in ${dir}.`)
}

/** What other rooms (the demo's samples) do with files as a drop would. */
export interface UploadsHelpers {
  /** Writes files sent as bytes under <dataDir>/dropped/<date>/, each under a free name. */
  writeDropped(files: { name: string; base64: string }[]): Promise<string[]>
  /** Hands files to the engine for the active business, as a drop. */
  addPaths(
    paths: string[],
    o: { target: AiTarget; prompt?: string; processType?: 'async' | 'direct' },
  ): Promise<IntakeOutcome[]>
}

export function uploadsHelpers(ctx: AppContext): UploadsHelpers {
  const outcomes = (results: IntakeResult[], paths: string[]): IntakeOutcome[] =>
    results.map((r, i) =>
      r.kind === 'ignored'
        ? { kind: 'ignored', why: r.why, path: paths[i] ?? '' }
        : { kind: r.kind, upload: toUploadView(r.upload) },
    )
  return {
    async writeDropped(files) {
      const dir = join(ctx.dataDir, 'dropped', localDate(new Date()))
      await mkdir(dir, { recursive: true, mode: 0o700 })
      const paths: string[] = []
      for (const f of files) {
        paths.push(await writeUnique(dir, sanitizeFileName(f.name), Buffer.from(f.base64, 'base64')))
      }
      return paths
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
  }
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
      return files.addPaths(await files.writeDropped(req.files), req)
    },

    async uploadBankStatement(req: ParsedReq<'uploadBankStatement'>): Promise<IntakeOutcome[]> {
      ctx.activeBusiness()
      const paths = await files.writeDropped(req.files)
      return files.addPaths(paths, { target: 'bank-transactions', prompt: req.prompt })
    },

    async history(req: ParsedReq<'history'>): Promise<Calls['history']> {
      const page = ctx.engine.history(req)
      return { rows: page.rows.map(toUploadView), total: page.total }
    },

    async retryUpload(req: ParsedReq<'retryUpload'>): Promise<UploadView> {
      return toUploadView(await ctx.engineAction('not_retryable', () => ctx.engine.retry(req.id)))
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
      if (!row) throw new AppError('not_found', `There is no upload #${req.id}.`)
      const path = row.movedTo || row.path
      return { shown: await ctx.shell.showItemInFolder(path), path }
    },
  }
}
