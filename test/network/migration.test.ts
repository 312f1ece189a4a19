/**
 * Rows that earlier versions ended on an answer that was not the API's (issue 22) go on after the
 * update: once per data folder, they are sent again with the same Idempotency-Key, or followed again,
 * and leaves the API's own refusals and real records alone. Real SQLite, the real emulator.
 */
import { createHash, randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { BookkeepingClient } from '../../src-main/core/api'
import { DB_FILE } from '../../src-main/core/store/data-dir'
import { Db } from '../../src-main/core/store/db'
import { UploadStore } from '../../src-main/core/store/uploads'
import { type Sandbox, startSandbox } from '../../sandbox'
import { KEY, PROFILE, type Rig, createdBySha, fixtures, rig } from '../engine/helpers'

let r: Rig | undefined
let sb: Sandbox | undefined
let dir: string | undefined
afterEach(async () => {
  await r?.close()
  await sb?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
  r = sb = dir = undefined
})

const sha = (s: string) => createHash('sha256').update(s).digest('hex')

it('failed or "done" on a portal, an ingress page, a redirect, network errors or a foreign JSON: sent or followed again; the API’s own word stays', async () => {
  sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 20 }), port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-migrate-'))
  const inbox = join(dir, 'inbox')
  await mkdir(join(inbox, 'Uploaded'), { recursive: true })
  const dataDir = join(dir, 'data')

  const files: Record<string, string> = {}
  for (const name of ['portal', 'ingress', 'outage', 'maintenance', 'refused', 'done']) {
    files[name] = `Receipt ${name}\nTotal: NGN ${name.length}00.00\n${randomUUID()}\n`
    await writeFile(join(inbox, `${name}.txt`), files[name]!)
  }
  // The maintenance notice's file had been moved to Uploaded/ as if done.
  const moved = join(inbox, 'Uploaded', 'maintenance.txt')
  await rm(join(inbox, 'maintenance.txt'))
  await writeFile(moved, files.maintenance!)
  // A job the server really has, given up on a portal's 302 by an earlier version.
  const client = new BookkeepingClient({ environment: 'custom', baseUrl: sb.url, auth: { key: KEY } })
  files.followed = `Receipt followed\nTotal: NGN 900.00\n${randomUUID()}\n`
  await writeFile(join(inbox, 'followed.txt'), files.followed)
  const job = await client.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: join(inbox, 'followed.txt') }] })
  const jobRef = job.process_type === 'async' ? job.job_reference : ''
  expect(jobRef).toBeTruthy()

  // The rows as an earlier version left them.
  const db = new Db(join(dataDir, DB_FILE))
  const now = Date.now()
  const row = (name: string, status: string, over: Record<string, unknown>) => {
    const cols: Record<string, unknown> = {
      profile_id: PROFILE, target: 'expenses', source: 'drop', path: join(inbox, `${name}.txt`), name: `${name}.txt`,
      prompt: 'Create an expense from this receipt', status, idempotency_key: randomUUID(),
      created_at: now - 60_000, updated_at: now - 60_000, attempts: 1, ...over,
    }
    const keys = Object.keys(cols)
    db.run(`INSERT INTO uploads (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`, ...keys.map((k) => cols[k]))
  }
  row('portal', 'failed', { error_code: 'bad_response', http_status: 200, last_error: 'Unexpected response from POST /expenses: the body is not JSON.' })
  row('ingress', 'failed', { error_code: 'http_404', http_status: 404, last_error: 'POST /expenses failed: the server answered 404 Not Found.' })
  row('outage', 'failed', { attempts: 25, error_code: 'network_error', last_error: 'Gave up after 25 attempts. Last error: Could not reach api.example.com (ENOTFOUND); check the connection and the base URL.' })
  row('maintenance', 'completed', {
    error_code: 'completion_not_reported', completed_at: now - 50_000, moved_to: moved, after_upload: 'move', archive_dir: join(inbox, 'Uploaded'),
    last_error: 'Sent; the server did not report completion. (its answer named no job and no record)',
  })
  row('followed', 'completed', {
    job_reference: jobRef, accepted_at: now - 59_000, polls: 1, error_code: 'completion_not_reported', http_status: 302, completed_at: now - 50_000,
    last_error: `Sent; the server did not report completion. (job ${jobRef} could not be followed: 302, GET /jobs/${jobRef} was redirected (302). Redirects are not followed, so the key is never sent elsewhere: check the base URL)`,
  })
  row('refused', 'failed', { error_code: 'validation_error', http_status: 400, last_error: 'prompt: Required' })
  row('done', 'completed', { record_uuid: 'rec-kept', record_type: 'expenses', completed_at: now - 50_000 })
  db.close()

  r = await rig({ sandbox: sb, dataDir })
  await r.engine.whenIdle()
  const byName = new Map(r.engine.history().rows.map((u) => [u.name, u]))
  for (const name of ['portal', 'ingress', 'outage', 'maintenance', 'followed']) {
    const u = byName.get(`${name}.txt`)!
    expect(u.status, `${name}: ${u.lastError}`).toBe('completed')
    expect(u.recordUuid, name).toBeTruthy()
  }
  expect(byName.get('maintenance.txt')!.path).toBe(moved)
  expect(existsSync(moved)).toBe(true)
  expect(byName.get('followed.txt')!.jobReference).toBe(jobRef)
  expect(byName.get('refused.txt')).toMatchObject({ status: 'failed', errorCode: 'validation_error' })
  expect(byName.get('done.txt')).toMatchObject({ status: 'completed', recordUuid: 'rec-kept' })
  const made = await createdBySha(sb)
  for (const name of ['portal', 'ingress', 'outage', 'maintenance', 'followed']) expect(made.get(sha(files[name]!)), name).toBe(1)
  expect(made.get(sha(files.refused!))).toBeUndefined()
})

it('the upgrade picks rows by their stored code and only those that ended within a day: a row from months ago, or the API’s own failure, is never sent again', async () => {
  sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 20 }), port: 0 })
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-migrate-window-'))
  const inbox = join(dir, 'inbox')
  await mkdir(inbox, { recursive: true })
  const dataDir = join(dir, 'data')
  const files: Record<string, string> = {}
  for (const name of ['recent', 'months', 'lastweek', 'apifailure']) {
    files[name] = `Receipt ${name}\nTotal: NGN ${name.length}00.00\n${randomUUID()}\n`
    await writeFile(join(inbox, `${name}.txt`), files[name]!)
  }
  const db = new Db(join(dataDir, DB_FILE))
  const now = Date.now()
  const DAY = 24 * 60 * 60 * 1000
  const row = (name: string, endedAgo: number, over: Record<string, unknown>) => {
    const cols: Record<string, unknown> = {
      profile_id: PROFILE, target: 'expenses', source: 'drop', path: join(inbox, `${name}.txt`), name: `${name}.txt`,
      prompt: 'Create an expense from this receipt', status: 'failed', idempotency_key: randomUUID(),
      created_at: now - endedAgo - 60_000, updated_at: now - endedAgo, attempts: 25, ...over,
    }
    const keys = Object.keys(cols)
    db.run(`INSERT INTO uploads (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`, ...keys.map((k) => cols[k]))
  }
  const gaveUp = 'Gave up after 25 attempts. Last error: Could not reach api.example.com (ENOTFOUND); check the connection and the base URL.'
  // An earlier version's rows: the same ending an hour ago, a week ago and months ago.
  row('recent', 60 * 60 * 1000, { error_code: 'network_error', last_error: gaveUp })
  row('lastweek', 7 * DAY, { error_code: 'network_error', last_error: gaveUp })
  row('months', 120 * DAY, { error_code: 'bad_response', http_status: 200, last_error: 'Unexpected response from POST /expenses: the body is not JSON.' })
  // The API's own 500 (its envelope, its code) whose English reads like the old pattern.
  row('apifailure', 60 * 60 * 1000, {
    error_code: 'server_error', http_status: 500,
    last_error: 'Gave up after 25 attempts. Last error: POST /expenses failed: the server answered 500 Internal Server Error.',
  })
  // The upgrade's own step, as the engine runs it once: which rows, and what their history says.
  const moved = new UploadStore(db).resumeEndedWithoutTheApi(now)
  const after = new Map([...new UploadStore(db).iterate({})].map((u) => [u.name, u]))
  db.close()
  expect(moved).toBe(1)
  expect(after.get('recent.txt')).toMatchObject({ status: 'waiting_retry', errorCode: 'not_api' })
  expect(after.get('recent.txt')!.lastError).toMatch(
    /^Resumed by the update: it had failed \(network_error\) at \d{4}-\d\d-\d\d \d\d:\d\d UTC on an answer that was not the API's; sent again with the same Idempotency-Key\.$/,
  )
  for (const name of ['lastweek', 'months', 'apifailure']) expect(after.get(`${name}.txt`)!.status, name).toBe('failed')

  // The engine on this data folder: the resumed row is sent once, the others never.
  r = await rig({ sandbox: sb, dataDir })
  await r.engine.whenIdle()
  const made = await createdBySha(sb)
  expect(made.get(sha(files.recent!))).toBe(1)
  for (const name of ['lastweek', 'months', 'apifailure']) expect(made.get(sha(files[name]!)), name).toBeUndefined()
})
