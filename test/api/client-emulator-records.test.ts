/**
 * Part 2 of 2 (AI creates, reads, updates and delete, rate limits and faults).
 * End-to-end: every client method against the emulator over real HTTP (loopback). A fresh sandbox
 * per test, so each test owns its data (partner holding, records, rate-limit budget).
 *
 * Everything runs twice (issue #11): against the emulator's full answers, and against its
 * spec-minimal variant, which carries only what api-spec.md names. Where a field is our own guess,
 * `ours(value, fallback)` says what the client reads from each: the value, or the fallback (null).
 */
import { createHash, randomBytes } from 'node:crypto'
import { appendFileSync, closeSync, openSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../schemas'
import { SANDBOX_VARIANTS } from '../../sandbox/index'
import { BookkeepingClient, type ResponseInfo } from '../../src-main/core/api'
import { BUSINESS_KEY, fixtures, useEmulator } from './emulator-rig'
import { useTempDir } from './temp-dir'

describe.each(SANDBOX_VARIANTS)(
  'the client against the %s emulator: AI creates, reads, updates, limits',
  (variant) => {
    const r = useEmulator(variant)
    const { ours, start, business, failure, settle, po } = r

    // ---------------------------------------------------------------------------------------------
    // AI creates and jobs
    // ---------------------------------------------------------------------------------------------

    describe('AI creates', () => {
      const tmp = useTempDir('bookdrop-e2e-')

      it('async: a job reference, a job that completes, and the record it made', async () => {
        const c = business()
        const receipt = Buffer.from('Total Energies\nDiesel\nTotal: NGN 12,500\n2026-01-06\n')
        const res = await c.aiCreate('expenses', {
          prompt: 'Record this fuel receipt',
          attachments: [{ file: receipt.toString('base64'), type: 'base64', name: 'fuel.txt' }],
        })
        if (res.process_type !== 'async') throw new Error('expected an async job')
        expect(res.job_reference).not.toBe('')
        const early = await c.getJob(res.job_reference)
        expect(['queued', 'processing']).toContain(early.status)
        expect(early.resource_uuid).toBeNull()
        const job = await settle(c, res.job_reference)
        expect(job).toMatchObject({ job_reference: res.job_reference, status: 'completed', message: null })
        const rec = await c.get('expenses', job.resource_uuid!)
        expect(rec.uuid).toBe(job.resource_uuid)
        expect(rec.attachment_name).toBe(ours('fuel.txt'))
      })

      it('direct: the created record in the response, readable afterwards', async () => {
        const c = business()
        const res = await c.aiCreate('bills', {
          prompt: 'Bill from Flour Mills for NGN 40,000',
          process_type: 'direct',
        })
        if (res.process_type !== 'direct') throw new Error('expected a direct record')
        expect(await c.get('bills', res.record.uuid)).toEqual(res.record)
      })

      it('a direct invoice comes back in the invoice shape', async () => {
        const res = await business().aiCreate('invoices', {
          prompt: 'Invoice Cafe Lumen NGN 64,000',
          process_type: 'direct',
        })
        if (res.process_type !== 'direct') throw new Error('expected a direct record')
        expect(res.record).toMatchObject({
          total_amount: expect.any(Number),
          balance: expect.any(Number),
          payments: [],
        })
      })

      it('a bank upload with a file kind it does not take is refused locally, naming the attachment', async () => {
        const e = await failure(
          business().aiCreate('bank-transactions', {
            prompt: 'January',
            attachments: [{ file: 'AAAA', type: 'base64', name: 'statement.txt' }],
          }),
        )
        expect(e.message).toContain('attachments.0.name')
        expect(r.responses).toEqual([])
      })

      it('an unknown job is a 404', async () => {
        const e = await failure(business().getJob('job_nope'))
        expect(e).toMatchObject({ status: 404, errorCode: ERROR_CODES.notFound })
      })

      it('streams files from disk: the server receives exactly their bytes', async () => {
        const c = business()
        const scan = randomBytes(300_001)
        const path = tmp.join('bill-scan.pdf')
        writeFileSync(path, scan)
        const res = await c.aiCreateFromFiles(
          'bills',
          { prompt: 'Supplier bill', files: [{ path }] },
          { idempotencyKey: 'file-1' },
        )
        if (res.process_type !== 'async') throw new Error('expected an async job')
        const job = await settle(c, res.job_reference)
        expect(job.status).toBe('completed')
        const rec = await c.get('bills', job.resource_uuid!)
        expect(rec.attachment_name).toBe(ours('bill-scan.pdf'))
        const logged = r.sb.state.creates.find((x) => x.uuid === job.resource_uuid)
        expect(logged?.idempotency_key).toBe('file-1')
        expect(logged?.attachments).toEqual([
          {
            name: 'bill-scan.pdf',
            bytes: scan.length,
            sha256: createHash('sha256').update(scan).digest('hex'),
          },
        ])
      })

      it('reads an opened file through its descriptor: the bytes opened are sent even after the path is replaced, and a file that grew since it was measured is refused', async () => {
        const c = business()
        const scan = randomBytes(200_000)
        const path = tmp.join('opened.pdf')
        writeFileSync(path, scan)
        const handle = await open(path, 'r')
        try {
          // The descriptor's position is at its end: the client reads by position, not from it.
          await handle.read(Buffer.alloc(scan.length), 0, scan.length, null)
          // The path now names another file: what was opened (and checked) is what is sent.
          renameSync(path, tmp.join('opened-old.pdf'))
          writeFileSync(path, randomBytes(1000))
          const res = await c.aiCreateFromFiles('bills', { prompt: 'p', files: [{ path, name: 'opened.pdf', handle }] }, { idempotencyKey: 'handle-1' })
          if (res.process_type !== 'async') throw new Error('expected an async job')
          const job = await settle(c, res.job_reference)
          const logged = r.sb.state.creates.find((x) => x.uuid === job.resource_uuid)
          expect(logged?.attachments).toEqual([
            { name: 'opened.pdf', bytes: scan.length, sha256: createHash('sha256').update(scan).digest('hex') },
          ])
        } finally {
          await handle.close()
        }

        // Recorded at 200,000 bytes, then grown while it waited: its descriptor measures it again, and
        // nothing is sent.
        const growing = tmp.join('growing.pdf')
        writeFileSync(growing, scan)
        const h2 = await open(growing, 'r')
        try {
          const { mtimeMs } = statSync(growing)
          const sha256 = createHash('sha256').update(scan).digest('hex')
          appendFileSync(growing, 'page 2')
          const creates = r.sb.state.creates.length
          const e = await failure(
            c.aiCreateFromFiles(
              'bills',
              { prompt: 'p', files: [{ path: growing, handle: h2, expect: { size: scan.length, mtimeMs, sha256 } }] },
              { idempotencyKey: 'handle-2' },
            ),
          )
          expect(e.errorCode).toBe('file_superseded')
          expect(r.sb.state.creates.length).toBe(creates)
        } finally {
          await h2.close()
        }
      })

      it('uploads a CSV bank statement from disk: one transaction per row', async () => {
        const c = business()
        const path = tmp.join('january.csv')
        writeFileSync(
          path,
          'Date,Description,Amount\n2026-01-10,Coffee beans,-1500\n2026-01-11,Transfer from Cafe Lumen,20000\n',
        )
        const res = await c.aiCreateFromFiles('bank-transactions', {
          prompt: 'January statement',
          files: [{ path }],
        })
        if (res.process_type !== 'async') throw new Error('expected an async job')
        expect((await settle(c, res.job_reference)).status).toBe('completed')
        const list = await c.list('bank-transactions', { date_order: 'asc' })
        expect(list.data).toHaveLength(3)
        expect(list.meta.total).toBe(ours(3))
        expect(list.data.map((t) => t.amount)).toEqual(ours([-12.5, -1500, 20000], [null, null, null]))
      })

      it('the bytes sent are the bytes hashed: a change while streaming aborts the body before it is complete', async () => {
        const c = business()
        const original = randomBytes(3 * 1024 * 1024)
        const path = tmp.join('changing.pdf')
        writeFileSync(path, original)
        const sha256 = createHash('sha256').update(original).digest('hex')
        const { mtimeMs } = statSync(path)
        let changed = false
        let lastSent = 0
        let total = 0
        const e = await failure(
          c.aiCreateFromFiles(
            'bills',
            {
              prompt: 'Supplier bill',
              files: [{ path, expect: { size: original.length, mtimeMs, sha256 } }],
            },
            {
              idempotencyKey: 'changing-1',
              onProgress: (sent, t) => {
                lastSent = sent
                total = t
                if (!changed) {
                  // The person saves over the file while it is being sent: its last bytes change.
                  changed = true
                  const fd = openSync(path, 'r+')
                  writeSync(fd, Buffer.from('CHANGED'), 0, 7, original.length - 7)
                  closeSync(fd)
                }
              },
            },
          ),
        )
        expect(e.errorCode).toBe('file_superseded')
        expect(e.message).toMatch(/changed on disk after it was queued/)
        // The body never reached its end, so the server had no complete request to act on.
        expect(lastSent).toBeLessThan(total)
        expect(r.sb.state.creates).toEqual([])
      })

      it('a file whose size or mtime is not the recorded one is not sent at all', async () => {
        const path = tmp.join('replaced.pdf')
        writeFileSync(path, randomBytes(1000))
        const { mtimeMs } = statSync(path)
        const seen: ResponseInfo[] = []
        const watched = new BookkeepingClient({
          environment: 'custom',
          baseUrl: r.sb.url,
          auth: { key: BUSINESS_KEY },
          onResponse: (r) => seen.push(r),
        })
        const e = await failure(
          watched.aiCreateFromFiles('bills', {
            prompt: 'p',
            files: [{ path, expect: { size: 999, mtimeMs, sha256: 'x' } }],
          }),
        )
        expect(e).toMatchObject({ errorCode: 'file_superseded', status: 0 })
        expect(e.message).toMatch(/nothing was sent/)
        expect(seen).toEqual([])
      })

      it('a file over maxFileBytes is refused with the limit and how to change it, nothing sent', async () => {
        const path = tmp.join('big.pdf')
        writeFileSync(path, randomBytes(2048))
        const c = new BookkeepingClient({
          environment: 'custom',
          baseUrl: r.sb.url,
          auth: { key: BUSINESS_KEY },
          maxFileBytes: 1024,
        })
        const e = await failure(c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path }] }))
        expect(e.errorCode).toBe('file_too_large')
        expect(e.message).toContain('maxFileBytes')
        expect(r.sb.state.creates).toEqual([])
      })
    })

    // ---------------------------------------------------------------------------------------------
    // Reads, updates, delete
    // ---------------------------------------------------------------------------------------------

    describe('reads', () => {
      it('lists invoices with page meta', async () => {
        const page = await business().list('invoices')
        expect(page.meta).toEqual({ page: 1, limit: 20, total: ours(1) })
        // List elements are not shown by the spec: the spec-minimal server leaves out what is paid.
        expect(page.data[0]).toMatchObject({
          uuid: 'i1',
          total_amount: 100,
          amount_paid: ours(40),
          balance: ours(60),
          source_uuid: ours('s1'),
        })
      })

      it('filters and pages', async () => {
        const c = business()
        expect((await c.list('invoices', { search: 'no such text' })).data).toEqual([])
        await c.aiCreate('expenses', { prompt: 'Diesel NGN 5,000', process_type: 'direct' })
        await c.aiCreate('expenses', { prompt: 'Flour NGN 9,000', process_type: 'direct' })
        const one = await c.list('expenses', { page: 2, limit: 1 })
        expect(one.meta).toEqual({ page: 2, limit: 1, total: ours(2) })
        expect(one.data).toHaveLength(1)
        expect(await c.list('expenses', { page: 3, limit: 1 })).toMatchObject({ data: [] })
      })

      it('reads an invoice by uuid or by source_uuid', async () => {
        const c = business()
        const byUuid = await c.getInvoice('i1')
        expect(byUuid).toMatchObject({
          uuid: 'i1',
          due_date: '2026-02-05',
          total_amount: 100,
          amount_paid: 40,
          balance: 60,
          currency: 'NGN',
        })
        expect(await c.getInvoice('s1')).toEqual(byUuid)
        expect(await c.get('invoices', 's1')).toEqual(byUuid)
        expect((await failure(c.getInvoice('nope'))).status).toBe(404)
      })

      it('reads a bank transaction', async () => {
        expect(await business().get('bank-transactions', 't1')).toMatchObject({
          uuid: 't1',
          amount: ours(-12.5),
          narration: ours('n'),
          currency: ours('NGN'),
        })
      })
    })

    describe('updates and delete', () => {
      it('patches an expense', async () => {
        const c = business()
        const res = await c.aiCreate('expenses', { prompt: 'Diesel NGN 5,000', process_type: 'direct' })
        if (res.process_type !== 'direct') throw new Error('expected a direct record')
        const updated = await c.patchExpense(res.record.uuid, {
          narration: 'Generator diesel',
          memo: 'site B',
        })
        expect(updated).toMatchObject({ uuid: res.record.uuid, narration: 'Generator diesel' })
        expect(await c.get('expenses', res.record.uuid)).toMatchObject({
          narration: ours('Generator diesel'),
          memo: ours('site B'),
        })
      })

      it('patches and puts a bill', async () => {
        const c = business()
        const res = await c.aiCreate('bills', { prompt: 'Bill NGN 40,000', process_type: 'direct' })
        if (res.process_type !== 'direct') throw new Error('expected a direct record')
        expect((await c.patchBill(res.record.uuid, { narration: 'Flour, January' })).narration).toBe(
          'Flour, January',
        )
        const put = await c.putBill(res.record.uuid, {
          narration: 'Flour, Jan (final)',
          date: '2026-01-31',
          amount: 41_000,
        })
        expect(put).toMatchObject({ uuid: res.record.uuid, narration: 'Flour, Jan (final)' })
        expect(await c.get('bills', res.record.uuid)).toMatchObject({
          date: ours('2026-01-31'),
          amount: ours(41_000),
        })
      })

      it('an update of an unknown record is a 404; an empty patch never leaves the machine', async () => {
        const c = business()
        expect((await failure(c.patchExpense('nope', { narration: 'x' }))).status).toBe(404)
        const n = r.responses.length
        expect((await failure(c.patchBill('nope', {}))).errorCode).toBe('validation_error')
        expect(r.responses).toHaveLength(n)
      })

      it('deletes a bank transaction', async () => {
        const c = business()
        expect((await c.deleteBankTransaction('t1')).message.length).toBeGreaterThan(0)
        expect((await failure(c.get('bank-transactions', 't1'))).status).toBe(404)
        expect((await c.list('bank-transactions')).data).toEqual([])
      })
    })

    // ---------------------------------------------------------------------------------------------
    // Rate limits and faults
    // ---------------------------------------------------------------------------------------------

    describe('rate limits and faults', () => {
      it('onResponse sees the budget shrink; past it, a retryable 429 says how long to wait', async () => {
        await start(fixtures({ rate_limit: { limit: 3, window_seconds: 60 } }))
        const c = business()
        for (let i = 0; i < 3; i++) await c.validateKey()
        expect(r.responses.map((r) => r.rateLimit?.remaining)).toEqual([2, 1, 0])
        expect(r.responses.every((r) => r.rateLimit?.limit === 3)).toBe(true)
        const e = await failure(c.validateKey())
        expect(e).toMatchObject({ status: 429, errorCode: ERROR_CODES.rateLimited, retryable: true })
        expect(e.rateLimit).toMatchObject({ limit: 3, remaining: 0 })
        expect(e.rateLimit!.resetAt).toBeGreaterThan(Date.now())
        expect(e.retryAfterMs).toBeGreaterThan(0)
        expect(e.retryAfterMs).toBeLessThanOrEqual(60_000)
        expect(r.responses.at(-1)).toMatchObject({ status: 429, path: '/auth/validate' })
      })

      it('reads an epoch X-RateLimit-Reset when there is no Retry-After', async () => {
        r.sb.setFaults({
          burst_429: 1,
          burst_reset_style: 'epoch',
          burst_retry_after: false,
          burst_wait_seconds: 5,
        })
        const e = await failure(business().validateKey())
        expect(e.status).toBe(429)
        expect(e.retryAfterMs).toBeGreaterThan(3_000)
        expect(e.retryAfterMs).toBeLessThanOrEqual(6_000)
        expect(e.rateLimit!.resetAt! - Date.now()).toBeLessThanOrEqual(6_000)
      })

      it('a 5xx is retryable, and a retry with the same Idempotency-Key creates exactly once', async () => {
        const c = business()
        r.sb.setFaults({ fail_next: 1 })
        const e = await failure(c.createPurchaseOrder(po))
        expect(e.status).toBeGreaterThanOrEqual(500)
        expect(e.retryable).toBe(true)
        expect(e.idempotencyKey).toBeDefined()
        const created = await c.createPurchaseOrder(po, { idempotencyKey: e.idempotencyKey })
        const again = await c.createPurchaseOrder(po, { idempotencyKey: e.idempotencyKey })
        expect(again.uuid).toBe(created.uuid)
        expect(r.sb.state.creates).toHaveLength(1)
      })

      it('a dropped connection is a retryable network error with status 0', async () => {
        r.sb.setFaults({ drop_next: 1 })
        const e = await failure(business().validateKey())
        expect(e).toMatchObject({ status: 0, errorCode: 'network_error', retryable: true })
      })

      it('a create committed but never answered is created once when retried with its key', async () => {
        const c = business()
        r.sb.setFaults({ commit_then_drop_next: 1 })
        const e = await failure(
          c.aiCreate(
            'expenses',
            { prompt: 'Diesel NGN 5,000', process_type: 'direct' },
            { idempotencyKey: 'row-9' },
          ),
        )
        expect(e).toMatchObject({ status: 0, retryable: true })
        const res = await c.aiCreate(
          'expenses',
          { prompt: 'Diesel NGN 5,000', process_type: 'direct' },
          { idempotencyKey: 'row-9' },
        )
        if (res.process_type !== 'direct') throw new Error('expected a direct record')
        expect(r.sb.state.creates.map((x) => x.uuid)).toEqual([res.record.uuid])
      })
    })
  },
)
