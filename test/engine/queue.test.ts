/**
 * The upload queue end to end: dropped files → rows in SQLite → AI creates over HTTP to the
 * emulator → jobs polled → completed, exactly once, whatever the emulator throws at it.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  KEY,
  KEY_NO_API,
  PROFILE,
  type Rig,
  byName,
  createdBySha,
  fixtures,
  receipt,
  rig,
  rig as startRig,
  waitFor,
} from './helpers'
import { SANDBOX_VARIANTS } from '../../sandbox'
import { paddedPdf } from './documents'

let r: Rig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

const drop = (
  paths: string[],
  extra: Partial<{ target: 'expenses' | 'bank-transactions'; processType: 'async' | 'direct' }> = {},
) =>
  r!.engine.addFiles(paths, {
    profileId: PROFILE,
    target: extra.target ?? 'expenses',
    processType: extra.processType,
  })

describe.each(SANDBOX_VARIANTS)('queue and jobs against the %s emulator', (variant) => {
  const rig = (o: Parameters<typeof startRig>[0] = {}) => startRig({ ...o, variant })

  it('three dropped receipts reach completed with their record uuid, each created once', async () => {
    r = await rig()
    const files = await Promise.all(['a.txt', 'b.pdf', 'c.png'].map((n) => receipt(r!.inbox, n)))
    const results = await drop(files.map((f) => f.path))
    expect(results.map((x) => x.kind)).toEqual(['queued', 'queued', 'queued'])
    await r.engine.whenIdle()
    const rows = r.engine.history().rows
    expect(rows).toHaveLength(3)
    for (const row of rows) {
      expect(row.status).toBe('completed')
      expect(row.recordUuid).toBeTruthy()
      expect(row.jobReference).toBeTruthy()
    }
    const made = await createdBySha(r.sb)
    for (const f of files) expect(made.get(f.sha256)).toBe(1)
    // The record really exists on the server.
    const row = byName(rows).get('a.txt')!
    const res = await fetch(`${r.sb.url}/expenses/${row.recordUuid}`, { headers: { 'X-API-Key': KEY } })
    expect(res.status).toBe(200)
    // Status changes were announced in order for each file.
    // (Once its record is read, the completed row is told again with what it became: issue 32.)
    const seq = r.events.upload.filter((e) => e.upload.id === row.id && e.previous !== e.upload.status).map((e) => e.upload.status)
    expect(seq).toEqual(['queued', 'uploading', 'processing', 'completed'])
  })

  it('a row is committed before the network call: the queue can be read while the server is unreachable', async () => {
    r = await rig()
    r.sb.setFaults({ drop_rate: 1 })
    const f = await receipt(r.inbox, 'offline.txt')
    await drop([f.path])
    const row = await waitFor('a retry to be scheduled', () => {
      const x = r!.engine.history().rows[0]
      return x && x.status === 'waiting_retry' && x.lastError ? x : undefined
    })
    expect(row.lastError).toMatch(/network|connect|socket|fetch|closed|reach/i)
    // No answer of the API: no attempt is used, and the profile says it waits for the server.
    expect(row.attempts).toBe(0)
    expect(r.engine.profileState(PROFILE).state).toBe('unreachable')
    expect(row.sha256).toBe(f.sha256)
    r.sb.setFaults({ drop_rate: 0 })
    await r.engine.whenIdle()
    expect(r.engine.uploads.get(row.id)!.status).toBe('completed')
    expect((await createdBySha(r.sb)).get(f.sha256)).toBe(1)
  })

  it('direct mode records the created resource at once, with no job to poll', async () => {
    r = await rig()
    const f = await receipt(r.inbox, 'direct.txt')
    await drop([f.path], { processType: 'direct' })
    await r.engine.whenIdle()
    const row = r.engine.history().rows[0]!
    expect(row.status).toBe('completed')
    expect(row.jobReference).toBeNull()
    expect(row.recordUuid).toBeTruthy()
    expect(r.seen.some((s) => s.path.startsWith('/jobs/'))).toBe(false)
  })

  it('the same content for the same profile and target is a duplicate pointing at the first, and can be sent anyway', async () => {
    r = await rig()
    const body = 'Receipt\nTotal: 500.00\n'
    const a = await receipt(r.inbox, 'first.txt', body)
    const b = await receipt(r.inbox, 'second.txt', body)
    await drop([a.path])
    await r.engine.whenIdle()
    const [res] = await drop([b.path])
    expect(res!.kind).toBe('duplicate')
    const dup = res!.kind === 'duplicate' ? res!.upload : undefined
    const first = r.engine.history({ search: 'first' }).rows[0]!
    expect(dup!.duplicateOf).toBe(first.id)
    expect(dup!.lastError).toContain('first.txt')
    await r.engine.whenIdle()
    expect((await createdBySha(r.sb)).get(a.sha256)).toBe(1)
    // "Send anyway".
    await r.engine.retry(dup!.id)
    await r.engine.whenIdle()
    expect(r.engine.uploads.get(dup!.id)!.status).toBe('completed')
    expect((await createdBySha(r.sb)).get(a.sha256)).toBe(2)
    // A bank statement with the same bytes is another target: not a duplicate.
    const csv = await receipt(r.inbox, 'same.csv', body)
    const [bank] = await drop([csv.path], { target: 'bank-transactions' })
    expect(bank!.kind).toBe('queued')
  })

  it('500s, 502s, 503s, dropped connections and commit-then-drop: every file completes, each created exactly once', async () => {
    r = await rig()
    r.sb.setFaults({ error_rate: 0.25, drop_rate: 0.1, commit_then_drop_rate: 0.3 })
    const files = await Promise.all(Array.from({ length: 24 }, (_, i) => receipt(r!.inbox, `f${i}.txt`)))
    await drop(files.map((f) => f.path))
    await r.engine.whenIdle()
    const rows = r.engine.history({ limit: 100 }).rows
    expect(rows.filter((x) => x.status === 'completed')).toHaveLength(24)
    const made = await createdBySha(r.sb)
    for (const f of files) expect(made.get(f.sha256)).toBe(1)
    expect(rows.some((x) => x.attempts > 1)).toBe(true) // faults really happened
  })

  it.each(['seconds', 'epoch'] as const)(
    'a 429 burst (reset as %s) pauses the whole profile, then every file completes',
    async (style) => {
      r = await rig()
      r.sb.setFaults({
        burst_429: 3,
        burst_reset_style: style,
        burst_retry_after: false,
        burst_wait_seconds: 1,
      })
      const files = await Promise.all(Array.from({ length: 6 }, (_, i) => receipt(r!.inbox, `r${i}.txt`)))
      const t0 = Date.now()
      await drop(files.map((f) => f.path))
      await waitFor('the profile to be rate limited', () =>
        r!.events.profile.find((p) => p.state === 'rate_limited'),
      )
      await r.engine.whenIdle()
      const rows = r.engine.history().rows
      expect(rows.every((x) => x.status === 'completed')).toBe(true)
      const made = await createdBySha(r.sb)
      for (const f of files) expect(made.get(f.sha256)).toBe(1)
      // Only the burst answered 429: after it the profile waited instead of hammering the server.
      expect(r.seen.filter((s) => s.status === 429)).toHaveLength(3)
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900)
      expect(r.events.profile.at(-1)?.state).toBe('active')
    },
  )

  it('paces requests so X-RateLimit-Remaining never goes below zero (no 429 from a small budget)', async () => {
    r = await rig({ fixtures: fixtures({ rate_limit: { limit: 5, window_seconds: 1 } }) })
    const files = await Promise.all(Array.from({ length: 8 }, (_, i) => receipt(r!.inbox, `p${i}.txt`)))
    await drop(files.map((f) => f.path))
    await r.engine.whenIdle()
    expect(r.engine.history().rows.every((x) => x.status === 'completed')).toBe(true)
    expect(r.seen.filter((s) => s.status === 429)).toHaveLength(0)
    expect(Math.min(...r.seen.map((s) => s.rateLimit?.remaining ?? 0))).toBeGreaterThanOrEqual(0)
    expect(r.events.rateLimit.length).toBeGreaterThan(0)
  }, 30_000)

  it('a 401 fails the file with the server message and pauses the profile until a new key; others wait', async () => {
    r = await rig({ keys: { [PROFILE]: 'svc_sk_not_a_real_key' }, engine: { queue: { concurrency: 1 } } })
    const files = await Promise.all(['k1.txt', 'k2.txt', 'k3.txt'].map((n) => receipt(r!.inbox, n)))
    await drop(files.map((f) => f.path))
    await waitFor('auth_required', () => r!.events.profile.find((p) => p.state === 'auth_required'))
    await new Promise((res) => setTimeout(res, 200))
    const counts = r.engine.uploads.countByStatus()
    expect(counts.failed).toBe(1)
    expect(counts.queued).toBe(2)
    const failed = r.engine.history({ statuses: ['failed'] }).rows[0]!
    expect(failed.httpStatus).toBe(401)
    expect(failed.lastError).toMatch(/invalid API key/i)
    expect(r.seen.filter((s) => s.status === 401)).toHaveLength(1) // not retried
  })

  it('a 403 (no Developer API access) fails with the subscription message and is never retried', async () => {
    r = await rig({ keys: { [PROFILE]: KEY_NO_API } })
    const f = await receipt(r.inbox, 'sub.txt')
    await drop([f.path])
    await waitFor('forbidden', () => r!.events.profile.find((p) => p.state === 'forbidden'))
    const row = r.engine.history().rows[0]!
    expect(row.status).toBe('failed')
    expect(row.lastError).toMatch(/Developer API/)
    expect(r.seen.filter((s) => s.status === 403)).toHaveLength(1)
  })

  it('a job that fails on the server records its reason; retry gets a fresh key and the server tries again', async () => {
    r = await rig()
    const f = await receipt(r.inbox, 'bad.txt', 'Receipt [[sandbox:fail]] total 5\n')
    await drop([f.path])
    await r.engine.whenIdle()
    const row = r.engine.history().rows[0]!
    expect(row.status).toBe('failed')
    expect(row.errorCode).toBe('job_failed')
    expect(row.lastError).toBeTruthy()
    const oldKey = row.idempotencyKey
    await r.engine.retry(row.id)
    await r.engine.whenIdle()
    const again = r.engine.uploads.get(row.id)!
    expect(again.idempotencyKey).not.toBe(oldKey)
    expect(again.attempts).toBe(1)
  })

  it('pause holds the queue, cancel stops a waiting file, resume sends the rest', async () => {
    r = await rig()
    r.engine.pause(PROFILE)
    const files = await Promise.all(['x1.txt', 'x2.txt', 'x3.txt'].map((n) => receipt(r!.inbox, n)))
    const res = await drop(files.map((f) => f.path))
    await new Promise((s) => setTimeout(s, 200))
    expect(r.seen).toHaveLength(0)
    const cancelId = res[1]!.kind === 'queued' ? res[1]!.upload.id : -1
    r.engine.cancel(cancelId)
    r.engine.resume(PROFILE)
    await r.engine.whenIdle()
    expect(r.engine.uploads.get(cancelId)!.status).toBe('cancelled')
    expect(r.engine.uploads.countByStatus().completed).toBe(2)
    expect((await createdBySha(r.sb)).has(files[1]!.sha256)).toBe(false)
  })

  it('reports upload progress with a final event at 100%', async () => {
    r = await rig()
    const f = await receipt(r.inbox, 'big.pdf', paddedPdf(600_000, 7))
    await drop([f.path])
    await r.engine.whenIdle()
    const last = r.events.progress.at(-1)!
    expect(last.sent).toBe(last.total)
    expect(last.total).toBeGreaterThan(800_000) // base64 of 600 KB
  })
})

describe('bad input: each file gets a status and a reason, and stays where it was', () => {
  it('empty, unsupported kind, too large, a folder named like a file, vanished, Unicode and very long names', async () => {
    r = await rig({ engine: { queue: { maxFileBytes: 1000 } } })
    const d = r.inbox
    await writeFile(join(d, 'empty.pdf'), '')
    await writeFile(join(d, 'tool.exe'), 'MZ....')
    await writeFile(join(d, 'huge.pdf'), Buffer.alloc(5000, 1))
    await mkdir(join(d, 'folder.pdf'))
    const uni = await receipt(d, 'reçu_été_€_领收据.txt')
    const long = await receipt(d, `${'x'.repeat(200)}.txt`)
    const paths = ['empty.pdf', 'tool.exe', 'huge.pdf', 'folder.pdf', 'gone.pdf'].map((n) => join(d, n))
    await drop([...paths, uni.path, long.path])
    await r.engine.whenIdle()
    const rows = byName(r.engine.history().rows)
    expect(rows.get('empty.pdf')).toMatchObject({ status: 'skipped', reason: 'empty' })
    expect(rows.get('tool.exe')).toMatchObject({ status: 'skipped', reason: 'unsupported_kind' })
    expect(rows.get('tool.exe')!.lastError).toMatch(/\.exe files are not sent/)
    expect(rows.get('huge.pdf')).toMatchObject({ status: 'skipped', reason: 'too_large' })
    expect(rows.get('huge.pdf')!.lastError).toMatch(/limit/)
    expect(rows.get('folder.pdf')).toMatchObject({ status: 'skipped', reason: 'unreadable' })
    expect(rows.get('gone.pdf')).toMatchObject({ status: 'skipped', reason: 'vanished' })
    expect(rows.get('reçu_été_€_领收据.txt')!.status).toBe('completed')
    expect(rows.get(`${'x'.repeat(200)}.txt`)!.status).toBe('completed')
    for (const n of ['empty.pdf', 'tool.exe', 'huge.pdf']) expect(existsSync(join(d, n))).toBe(true)
    // Nothing unsendable reached the server.
    expect(r.seen.filter((s) => s.method === 'POST')).toHaveLength(2)
  })

  it('a symlink loop is refused as unreadable, nothing crashes', async () => {
    r = await rig()
    const a = join(r.inbox, 'loop-a.pdf')
    const b = join(r.inbox, 'loop-b.pdf')
    await symlink(b, a)
    await symlink(a, b)
    const [res] = await drop([a])
    expect(res!.kind).toBe('skipped')
    expect(res!.kind === 'skipped' && res!.upload.reason).toBe('unreadable')
  })

  it('a bank statement of a kind the spec does not list is skipped before any request', async () => {
    r = await rig()
    const f = await receipt(r.inbox, 'statement.txt', 'date,amount\n2026-01-01,5\n')
    const [res] = await drop([f.path], { target: 'bank-transactions' })
    expect(res!.kind).toBe('skipped')
    expect(r.seen).toHaveLength(0)
    expect(await readFile(f.path, 'utf8')).toContain('date,amount')
  })
})
