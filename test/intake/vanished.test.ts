/**
 * A watcher may still hold a path pending after its file was taken (a late change event) and then
 * report it "vanished" when the file is renamed (issue 21, case 3). The row taken already says what
 * becomes of the file (it follows it to its new name), so the report records nothing: the history
 * has one row, not a second "moved or deleted before it could be sent". A file that vanished
 * before it was ever taken still gets its row. Real files, a real SQLite store.
 */
import { mkdtemp, realpath, rename, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { TypedEmitter } from '../../src-main/core/events'
import { Intake, type IntakeRequest } from '../../src-main/core/intake/intake'
import { inspect } from '../../src-main/core/intake/inspect'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'
import { pdfBytes } from '../engine/documents'

let dir: string
let db: Db
let store: UploadStore
let intake: Intake
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'bookdrop-vanished-')))
  db = new Db(join(dir, 'bookdrop.db'))
  store = new UploadStore(db)
  intake = new Intake(store, new TypedEmitter(), inspect)
})
afterEach(async () => {
  db.close()
  await rm(dir, { recursive: true, force: true })
})

const request = (path: string): IntakeRequest => ({
  profileId: 'p1',
  target: 'expenses',
  prompt: 'Receipt',
  processType: 'async',
  source: 'watch',
  folderId: 'f1',
  root: dir,
  path,
  acceptedKinds: ['pdf'],
  maxFileBytes: 25 * 1024 * 1024,
  afterUpload: 'leave',
  destinationDir: null,
})

it('a taken file reported vanished when renamed records nothing; its row follows it to the new name', async () => {
  const old = join(dir, 'scan-0001.pdf')
  await writeFile(old, pdfBytes('Total 1,500.00 NGN'))
  const taken = await intake.take(request(old))
  expect(taken.kind).toBe('queued')
  const renamed = join(dir, 'Lunch at Mama Put.pdf')
  await rename(old, renamed)
  expect(intake.vanished(request(old))).toEqual({ kind: 'ignored', why: 'already_handled' })
  const followed = await intake.take(request(renamed))
  expect(followed.kind).toBe('queued')
  const rows = store.query().rows
  expect(rows.map((r) => [r.name, r.status])).toEqual([['Lunch at Mama Put.pdf', 'queued']])
})

it('a file that vanished before it was taken gets its skipped row', async () => {
  const rows = () => store.query().rows.map((r) => [r.name, r.status, r.reason])
  const r = intake.vanished(request(join(dir, 'gone.pdf')))
  expect(r.kind).toBe('skipped')
  expect(rows()).toEqual([['gone.pdf', 'skipped', 'vanished']])
})
