/**
 * Helpers of the holding flow's engine tests (issue 33): a file dropped as the desktop drop gives it
 * to the engine (`addFiles`, source `drop`), and waits on a row's status. Used by held.test.ts and
 * duplicate-table.test.ts.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Upload } from '../../src-main/core/store/uploads'
import { PROFILE, type Rig, waitFor } from './helpers'

/** Writes `bytes` as `name` into the rig's inbox and drops it (Engine.addFiles, as the desktop drop does). */
export async function drop(r: Rig, name: string, bytes: Uint8Array): Promise<Upload> {
  const path = join(r.inbox, name)
  await writeFile(path, bytes)
  const [res] = await r.engine.addFiles([path], { profileId: PROFILE, target: 'expenses', source: 'drop' })
  if (!res || res.kind === 'ignored') throw new Error(`${name} was not taken`)
  return res.upload
}

export const statusOf = (r: Pick<Rig, 'engine'>, id: number) => r.engine.uploads.get(id)?.status
export const settled = (r: Pick<Rig, 'engine'>, id: number) =>
  waitFor(`#${id} completed`, () => statusOf(r, id) === 'completed', 30_000)
