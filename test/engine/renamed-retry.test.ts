/**
 * Issue 31, item 1: a file renamed while its upload waits for a retry is booked once. The first
 * create is made on the server, but its answer is lost behind a gateway's HTML 502 (the emulator
 * keeps the answer under the Idempotency-Key); the file is renamed while the row waits; the retry
 * must send the very body that went under that key (the history shows the new name), so the server
 * replays the record instead of refusing the key, and a person's Retry never sends the file under a
 * new key while the first create may exist. Real engine, real folder, the emulator over HTTP.
 */
import { readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Upload } from '../../src-main/core/store/uploads'
import { KEY, PROFILE, creates, receipt, useRigs, waitFor } from './helpers'

const rig = useRigs()
type Rig = Awaited<ReturnType<typeof rig>>

const ENDED = ['completed', 'failed', 'cancelled', 'skipped', 'superseded']

/**
 * Watches the rig's inbox; the profile is paused as soon as a row starts waiting for its retry,
 * until the returned function is called.
 */
async function watchHoldingRetries(r: Rig): Promise<() => void> {
  let holding = true
  r.engine.events.on('upload', ({ upload }) => {
    if (holding && upload.status === 'waiting_retry') r.engine.pause(PROFILE)
  })
  await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
  await waitFor('watching', () => r.engine.listFolders().find((f) => f.state === 'watching'))
  return () => (holding = false)
}

/** Renames the row's file and waits until the row follows it (still waiting, same row). */
async function renameWhileWaiting(r: Rig, row: Upload, to: string): Promise<void> {
  await rename(row.path, join(r.inbox, to))
  const followed = await waitFor('the row follows the file', () => {
    const u = r.engine.uploads.get(row.id)
    return u?.name === to && u
  })
  expect(followed.status).toBe('waiting_retry')
  expect(followed.idempotencyKey).toBe(row.idempotencyKey)
}

const ended = (r: Rig, id: number) => waitFor('ended', () => ENDED.includes(r.engine.uploads.get(id)?.status ?? ''), 20_000)

/** A person presses Retry while the row says failed (at most three times), as people do. */
async function retryWhileFailed(r: Rig, id: number): Promise<void> {
  for (let i = 0; i < 3 && r.engine.uploads.get(id)?.status === 'failed'; i++) {
    await r.engine.retry(id)
    await ended(r, id)
    await r.engine.whenIdle()
  }
}

describe('a create answered by an HTML 502 after it was made, its file renamed while it waits', () => {
  it('the retry (and a Retry) replays the record: exactly one record, the history shows the new name', async () => {
    const r = await rig()
    await r.sb.setFaults({ commit_then_502_next: 1 })
    const release = await watchHoldingRetries(r)
    const f = await receipt(r.inbox, 'scan-0001.pdf')
    const row = await waitFor('waiting for its retry', () =>
      r.engine.history().rows.find((x) => x.status === 'waiting_retry'),
    )
    expect(row.httpStatus).toBe(502)
    // The server made the record (its job runs on); Bookdrop never heard it.
    const made = await waitFor('the record', async () => (await creates(r.sb)).length === 1 && creates(r.sb))

    await renameWhileWaiting(r, row, 'Lunch at Mama Put.pdf')
    release()
    r.engine.resume(PROFILE)
    await ended(r, row.id)
    await r.engine.whenIdle()
    await retryWhileFailed(r, row.id)

    const after = await creates(r.sb)
    expect(after.map((c) => [c.uuid, c.attachments.map((a) => [a.name, a.sha256])])).toEqual([
      [made[0]!.uuid, [['scan-0001.pdf', f.sha256]]],
    ])
    const done = r.engine.uploads.get(row.id)!
    expect(done).toMatchObject({ status: 'completed', recordUuid: made[0]!.uuid, name: 'Lunch at Mama Put.pdf' })
    expect(done.path).toBe(join(r.inbox, 'Lunch at Mama Put.pdf'))
  })

  it('the server then fails until the attempts run out: a Retry replays the record, exactly one record', async () => {
    const r = await rig({ engine: { queue: { maxAttempts: 2 } } })
    await r.sb.setFaults({ commit_then_502_next: 1 })
    const release = await watchHoldingRetries(r)
    await receipt(r.inbox, 'scan-0002.pdf')
    const row = await waitFor('waiting for its retry', () =>
      r.engine.history().rows.find((x) => x.status === 'waiting_retry'),
    )
    const made = await waitFor('the record', async () => (await creates(r.sb)).length === 1 && creates(r.sb))

    await renameWhileWaiting(r, row, 'Fuel.pdf')
    // The API answers its own 500s (in its envelope) until Bookdrop gives up.
    await r.sb.setFaults({ fail_next: 5, error_statuses: [500] })
    release()
    r.engine.resume(PROFILE)
    await waitFor('gave up', () => r.engine.uploads.get(row.id)?.status === 'failed', 20_000)
    await r.engine.whenIdle()
    expect(r.engine.uploads.get(row.id)!.lastError).toMatch(/^Gave up after 2 attempts/)
    await r.sb.setFaults({ fail_next: 0 })

    await retryWhileFailed(r, row.id)
    expect((await creates(r.sb)).map((c) => c.uuid)).toEqual([made[0]!.uuid])
    expect(r.engine.uploads.get(row.id)).toMatchObject({ status: 'completed', recordUuid: made[0]!.uuid, name: 'Fuel.pdf' })
  })
})

it('"key reused" is never read as "nothing was created": Retry keeps the key and creates nothing', async () => {
  const r = await rig()
  await r.engine.addFolder({ profileId: PROFILE, path: r.inbox, target: 'expenses' })
  await waitFor('watching', () => r.engine.listFolders().find((f) => f.state === 'watching'))
  r.engine.pause(PROFILE)
  const f = await receipt(r.inbox, 'scan-0003.pdf')
  const row = await waitFor('queued', () => r.engine.history().rows.find((x) => x.status === 'queued'))
  // The server already holds another request under this row's key (a row of an older Bookdrop,
  // renamed after its first try): it made a record from it.
  const other = await fetch(`${r.sb.url}/expenses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, 'idempotency-key': row.idempotencyKey },
    body: JSON.stringify({
      prompt: 'Receipt',
      process_type: 'async',
      attachments: [{ file: (await readFile(f.path)).toString('base64'), type: 'base64', name: 'old name.pdf' }],
    }),
  })
  expect(other.status).toBeLessThan(300)
  await waitFor('its record', async () => (await creates(r.sb)).length === 1)

  r.engine.resume(PROFILE)
  await ended(r, row.id)
  await r.engine.whenIdle()
  const failed = r.engine.uploads.get(row.id)!
  expect(failed).toMatchObject({ status: 'failed', httpStatus: 422 })
  expect(failed.lastError).toMatch(/may already have made its record/)

  await r.engine.retry(row.id)
  await ended(r, row.id)
  await r.engine.whenIdle()
  expect(r.engine.uploads.get(row.id)!.idempotencyKey).toBe(row.idempotencyKey)
  expect(await creates(r.sb)).toHaveLength(1)
})
