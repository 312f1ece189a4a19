/**
 * AI creates (2.4, 2.5) and jobs (design.md §3) over real HTTP: async and direct modes, the job
 * life cycle, bank statement uploads, attachments of every type (url fetched from a local https
 * server with a throwaway self-signed certificate), failures, and the create log proving
 * "records are created exactly once, when the job completes".
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import https from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { AI_CREATE_ROUTES, BANK_UPLOAD_KINDS, LIMITS, invoiceSchema, recordSchema } from '../../schemas'
import type { Sandbox } from '../../sandbox/index'
import { commandWorks } from '../commands'
import {
  K2,
  as1,
  asyncData,
  b64,
  businessFixtures,
  businessSandbox,
  createAndWait,
  creates,
  dataOf,
  failureOf,
  jobData,
  metaOf,
  sha256,
  start,
  waitForJob,
} from './business-helpers'

const sb = businessSandbox()

const today = () => new Date().toISOString().slice(0, 10)
/** Bytes no reader takes for text (NUL, invalid UTF-8), like a real PDF. */
const PDF_BYTES = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from([0, 0xff, 0xfe, 0x80, 0x00, 0x9f])])

async function readRecord(path: string, uuid: string) {
  return dataOf(recordSchema, await as1(sb, 'GET', `${path}/${uuid}`))
}

// ---------------------------------------------------------------------------------------------
describe('AI create body', () => {
  it('attachment: bare string rejected', async () => {
    const f = failureOf(
      await as1(sb, 'POST', '/expenses', { body: { prompt: 'x', attachments: ['aGVsbG8='] } }),
      400,
    )
    expect(f.message).toMatch(/^attachments\.0: .*object/)
  })

  it('attachment: type always required', async () => {
    const body = { prompt: 'x', attachments: [{ file: 'aGVsbG8=', name: 'a.txt' }] }
    const f = failureOf(await as1(sb, 'POST', '/bills', { body }), 400)
    expect(f.message).toMatch(/^attachments\.0\.type: /)
  })

  it('attachment: file must be plain Base64 (no data: prefix, no stray characters)', async () => {
    for (const file of ['data:text/plain;base64,aGVsbG8=', 'not base64!']) {
      const body = { prompt: 'x', attachments: [{ file, type: 'base64', name: 'a.txt' }] }
      expect(failureOf(await as1(sb, 'POST', '/expenses', { body }), 400).message).toMatch(
        /^attachments\.0\.file: /,
      )
    }
  })

  it('prompt required and process_type async|direct on AI creates (400 naming the field)', async () => {
    expect(failureOf(await as1(sb, 'POST', '/expenses', { body: {} }), 400).message).toMatch(/prompt/)
    const bad = { prompt: 'x', process_type: 'later' }
    expect(failureOf(await as1(sb, 'POST', '/expenses', { body: bad }), 400).message).toMatch(
      /^process_type: /,
    )
  })

  it('decoded attachment larger than the limit → 400', async () => {
    const file = 'a'.repeat(LIMITS.maxAttachmentBytes + 1)
    const body = { prompt: 'big', attachments: [{ file, type: 'raw', name: 'big.txt' }] }
    const f = failureOf(await as1(sb, 'POST', '/expenses', { body }), 400)
    expect(f.message).toMatch(
      /attachments\.0 "big\.txt" is \d+ bytes, more than the largest attachment accepted/,
    )
    expect(await creates(sb, { route: '/expenses' })).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
describe('jobs', () => {
  it('async create returns job_reference; job goes queued→processing→completed with resource_uuid', async () => {
    const slow = await start(businessFixtures({ job_delay_ms: 600 }))
    try {
      const res = await as1(slow, 'POST', '/expenses', { body: { prompt: 'Lunch at Mama Put total ₦3,500' } })
      const accepted = dataOf(asyncData, res)
      expect(accepted.job_reference).toMatch(/^job_/)
      // Nothing is created before the job completes.
      const early = dataOf(jobData, await as1(slow, 'GET', `/jobs/${accepted.job_reference}`))
      expect(early).toMatchObject({
        status: 'queued',
        resource_uuid: null,
        message: null,
        resource_type: 'expense',
      })
      expect(await creates(slow)).toEqual([])

      const { job, seen } = await waitForJob(slow, accepted.job_reference)
      expect(seen).toEqual(['queued', 'processing', 'completed'])
      expect(job.resource_uuid).toEqual(expect.any(String))
      expect(job.resource_uuids).toEqual([job.resource_uuid])
      expect(Date.parse(job.updated_at)).toBeGreaterThanOrEqual(Date.parse(job.created_at))
      const rec = dataOf(recordSchema, await as1(slow, 'GET', `/expenses/${job.resource_uuid}`))
      expect(rec).toMatchObject({ amount: 3500, contact: 'Mama Put', currency: 'NGN', date: today() })
      expect(await creates(slow)).toEqual([
        expect.objectContaining({
          route: '/expenses',
          business: 'b1',
          uuid: job.resource_uuid,
          attachments: [],
        }),
      ])
    } finally {
      await slow.stop()
    }
  })

  it("another business's job → 404", async () => {
    const job = await createAndWait(sb, '/income', { prompt: 'Sales 1,000' })
    failureOf(await as1(sb, 'GET', `/jobs/${job.job_reference}`, { key: K2 }), 404)
  })
})

// ---------------------------------------------------------------------------------------------
describe('direct mode and resources', () => {
  it('direct create returns the resource', async () => {
    const body = { prompt: 'Lunch at Chicken Republic total ₦12,500 on 2026-01-03', process_type: 'direct' }
    const res = await as1(sb, 'POST', '/expenses', { body })
    const data = dataOf(recordSchema, res)
    expect(data).toMatchObject({
      resource_type: 'expense',
      narration: 'Lunch at Chicken Republic total ₦12,500 on 2026-01-03',
      amount: 12500,
      date: '2026-01-03',
      contact: 'Chicken Republic',
      currency: 'NGN',
    })
    expect(metaOf(res)).toEqual({ created: 1, uuids: [data.uuid] })
    expect(await readRecord('/expenses', data.uuid)).toEqual(data)
  })

  it('every AI create route takes the AI body, async and direct, and the record is readable', async () => {
    for (const [target, path] of Object.entries(AI_CREATE_ROUTES)) {
      const direct = await as1(sb, 'POST', path, {
        body: { prompt: `${target} 500`, process_type: 'direct' },
      })
      const uuid = dataOf(z.object({ uuid: z.string() }).loose(), direct).uuid
      expect((await as1(sb, 'GET', `/${target}/${uuid}`)).status, target).toBe(200)
      const job = await createAndWait(sb, path, { prompt: `${target} 600` })
      expect(job.status, target).toBe('completed')
      expect((await as1(sb, 'GET', `/${target}/${job.resource_uuid}`)).status, target).toBe(200)
    }
  })

  it('AI-created invoice: total from the text, nothing paid, due 30 days after its date, one record item', async () => {
    const body = {
      prompt: 'Invoice Cafe Lumen for cakes, amount due ₦45,000, dated 2026-01-10',
      process_type: 'direct',
    }
    const inv = dataOf(invoiceSchema, await as1(sb, 'POST', '/invoices', { body }))
    expect(inv).toMatchObject({
      total_amount: 45000,
      amount_paid: 0,
      balance: 45000,
      date: '2026-01-10',
      due_date: '2026-02-09',
    })
    expect(inv.record_items).toEqual([
      expect.objectContaining({ quantity: 1, selling_price: 45000, amount: 45000 }),
    ])
    expect(inv.payments).toEqual([])
    expect(dataOf(invoiceSchema, await as1(sb, 'GET', `/invoices/${inv.uuid}`))).toEqual(inv)
  })

  it('direct create with several attachments: data is the first record, meta {created, uuids}', async () => {
    const attachments = [
      { file: b64('SHOPRITE LEKKI\nTotal 3,000\n2026-01-02'), type: 'base64', name: 'shoprite.txt' },
      { file: b64(PDF_BYTES), type: 'base64', name: 'fuel.pdf' },
    ]
    const res = await as1(sb, 'POST', '/expenses', {
      body: { prompt: 'Fuel ₦8,000', attachments, process_type: 'direct' },
    })
    const first = dataOf(recordSchema, res)
    const meta = z.object({ created: z.literal(2), uuids: z.array(z.string()).length(2) }).parse(metaOf(res))
    expect(meta.uuids[0]).toBe(first.uuid)
    expect(first).toMatchObject({ narration: 'SHOPRITE LEKKI', amount: 3000, date: '2026-01-02' })
    expect(await readRecord('/expenses', meta.uuids[1] ?? '')).toMatchObject({
      narration: 'fuel.pdf',
      amount: 8000,
    })
  })
})

// ---------------------------------------------------------------------------------------------
describe('attachments and extraction', () => {
  it('binary attachment → one record named after its file', async () => {
    const attachments = [{ file: b64(PDF_BYTES), type: 'base64', name: 'receipt-0042.pdf' }]
    const job = await createAndWait(sb, '/bills', { prompt: 'Generator repair ₦18,000', attachments })
    expect(job.resource_uuids).toHaveLength(1)
    const rec = await readRecord('/bills', job.resource_uuid ?? '')
    expect(rec).toMatchObject({
      narration: 'receipt-0042.pdf',
      attachment_name: 'receipt-0042.pdf',
      amount: 18000,
    })
    const logged = (await creates(sb)).filter((c) => c.uuid === job.resource_uuid)
    expect(logged).toEqual([
      expect.objectContaining({
        route: '/bills',
        attachments: [{ name: 'receipt-0042.pdf', sha256: sha256(PDF_BYTES), bytes: PDF_BYTES.length }],
      }),
    ])
  })

  it('binary attachment with no amount in the prompt → amount 0', async () => {
    const attachments = [{ file: b64(PDF_BYTES), type: 'base64', name: 'scan.png' }]
    const job = await createAndWait(sb, '/expenses', { prompt: 'please record this', attachments })
    expect(await readRecord('/expenses', job.resource_uuid ?? '')).toMatchObject({
      narration: 'scan.png',
      amount: 0,
    })
  })

  it('text attachment: amount after "total", its date and vendor ("vendor: X")', async () => {
    const text =
      'Receipt 0042\nvendor: Flour Mills Nigeria\nDate 05/01/2026\nSubtotal 10,000\nTotal ₦10,750.00\n'
    const attachments = [{ file: b64(text), type: 'base64', name: 'receipt.txt' }]
    const job = await createAndWait(sb, '/expenses', { prompt: 'Record this receipt', attachments })
    const rec = await readRecord('/expenses', job.resource_uuid ?? '')
    expect(rec).toMatchObject({
      amount: 10750,
      date: '2026-01-05',
      contact: 'Flour Mills Nigeria',
      attachment_name: 'receipt.txt',
    })
  })

  it('text_attachment is read with the prompt', async () => {
    const body = {
      prompt: 'Office supplies',
      text_attachment: 'from Stationers Hub\nAmount due NGN 7,200',
      process_type: 'direct',
    }
    const rec = dataOf(recordSchema, await as1(sb, 'POST', '/expenses', { body }))
    expect(rec).toMatchObject({ narration: 'Office supplies', amount: 7200, contact: 'Stationers Hub' })
  })

  it("raw attachment: the string's bytes as latin1", async () => {
    const file = 'Caf\u00e9 Lumen\nTotal NGN 5000\n'
    const attachments = [{ file, type: 'raw', name: 'r.txt' }]
    const job = await createAndWait(sb, '/expenses', { prompt: 'coffee', attachments })
    expect(await readRecord('/expenses', job.resource_uuid ?? '')).toMatchObject({ amount: 5000 })
    const logged = (await creates(sb)).find((c) => c.uuid === job.resource_uuid)
    expect(logged?.attachments[0]).toEqual({
      name: 'r.txt',
      sha256: sha256(Buffer.from(file, 'latin1')),
      bytes: file.length,
    })
  })

  it('job failed with reason', async () => {
    const marker = await createAndWait(sb, '/expenses', { prompt: 'please fail [[sandbox:fail]]' })
    expect(marker).toMatchObject({ status: 'failed', resource_uuid: null, resource_uuids: [] })
    expect(marker.message).toMatch(/\[\[sandbox:fail\]\]/)

    const inFile = [{ file: b64('Total 5\n[[sandbox:fail]]'), type: 'base64', name: 'note.md' }]
    const fileJob = await createAndWait(sb, '/journals', { prompt: 'x', attachments: inFile })
    expect(fileJob.status).toBe('failed')
    expect(fileJob.message).toMatch(/note\.md/)

    const exe = [
      { file: b64('Total 5'), type: 'base64', name: 'ok.txt' },
      { file: b64('MZ\u0000\u0001'), type: 'base64', name: 'setup.exe' },
    ]
    const exeJob = await createAndWait(sb, '/expenses', { prompt: 'x', attachments: exe })
    expect(exeJob.status).toBe('failed')
    expect(exeJob.message).toMatch(/"setup\.exe" is an executable or archive/)
    // A failed job creates nothing, not even for its readable attachments.
    const refs = new Set([marker.resource_uuid, fileJob.resource_uuid, exeJob.resource_uuid])
    expect(refs).toEqual(new Set([null]))
    expect((await creates(sb)).filter((c) => c.attachments.some((a) => a.name === 'ok.txt'))).toEqual([])
  })

  it('direct create that cannot be processed → 400 with the reason', async () => {
    const attachments = [{ file: b64('PK\u0003\u0004'), type: 'base64', name: 'bundle.zip' }]
    const f = failureOf(
      await as1(sb, 'POST', '/contacts', { body: { prompt: 'x', attachments, process_type: 'direct' } }),
      400,
    )
    expect(f.message).toMatch(/bundle\.zip/)
  })
})

// ---------------------------------------------------------------------------------------------
describe('bank statement upload', () => {
  const CSV = [
    'Date,Description,Debit,Credit,Balance',
    '2026-01-02,"Flour, 2 bags","12,000.00",,88000',
    '03/01/2026,Transfer from Cafe Lumen,,"5,000",93000',
    '2026-01-04,"POS ""Shoprite""",450.50,,92549.50',
    '',
  ].join('\n')

  it('bank upload: prompt required (400)', async () => {
    const attachments = [{ file: b64(CSV), type: 'base64', name: 's.csv' }]
    for (const body of [{ attachments }, { prompt: '   ', attachments }]) {
      const f = failureOf(await as1(sb, 'POST', '/bank-transactions/upload', { body }), 400)
      expect(f.message).toBe('prompt: prompt is required on a bank statement upload')
    }
  })

  it('bank upload: kind not in list → 400 naming allowed kinds', async () => {
    for (const name of ['statement.txt', 'statement', undefined]) {
      const attachments = [{ file: b64(CSV), type: 'base64', ...(name ? { name } : {}) }]
      const f = failureOf(
        await as1(sb, 'POST', '/bank-transactions/upload', { body: { prompt: 'Jan', attachments } }),
        400,
      )
      expect(f.message).toContain(`allowed kinds are ${BANK_UPLOAD_KINDS.join(', ')}`)
      expect(f.message).toMatch(/^attachments\.0\.name: /)
    }
  })

  it('CSV statement → one transaction per row', async () => {
    const attachments = [{ file: b64(CSV), type: 'base64', name: 'january.csv' }]
    const job = await createAndWait(sb, '/bank-transactions/upload', {
      prompt: 'January statement',
      attachments,
    })
    expect(job).toMatchObject({ status: 'completed', resource_type: 'bank_transaction' })
    expect(job.resource_uuids).toHaveLength(3)
    const rows = await Promise.all(job.resource_uuids.map((u) => readRecord('/bank-transactions', u)))
    expect(rows.map((r) => [r.date, r.narration, r.amount])).toEqual([
      ['2026-01-02', 'Flour, 2 bags', -12000],
      ['2026-01-03', 'Transfer from Cafe Lumen', 5000],
      ['2026-01-04', 'POS "Shoprite"', -450.5],
    ])
    const logged = await creates(sb, { route: '/bank-transactions/upload' })
    const mine = logged.filter((c) => job.resource_uuids.includes(c.uuid))
    expect(mine).toHaveLength(3)
    for (const c of mine)
      expect(c.attachments).toEqual([
        { name: 'january.csv', sha256: sha256(Buffer.from(CSV)), bytes: CSV.length },
      ])
  })

  it('bank upload: a PDF statement gives one transaction named after its file; direct mode works too', async () => {
    const attachments = [{ file: b64(PDF_BYTES), type: 'base64', name: 'Statement-Jan.PDF' }]
    const body = { prompt: 'January statement', attachments, process_type: 'direct' }
    const res = await as1(sb, 'POST', '/bank-transactions/upload', { body })
    expect(dataOf(recordSchema, res)).toMatchObject({
      narration: 'Statement-Jan.PDF',
      resource_type: 'bank_transaction',
      amount: 0,
    })
  })

  it('bank upload: a CSV with only a header fails the job with a reason', async () => {
    const attachments = [{ file: b64('Date,Description,Amount\n'), type: 'base64', name: 'empty.csv' }]
    const job = await createAndWait(sb, '/bank-transactions/upload', { prompt: 'Feb', attachments })
    expect(job.status).toBe('failed')
    expect(job.message).toMatch(/empty\.csv.*no transaction rows/)
  })
})

// ---------------------------------------------------------------------------------------------
const hasOpenssl = commandWorks('openssl', ['version'])

describe.skipIf(!hasOpenssl)('url attachment https only; fetched once; timeout → failed job', () => {
  const RECEIPT = 'Kiosk 24\nvendor: Kiosk 24 Lekki\nTotal ₦4,500\n2026-01-08\n'
  const hits = new Map<string, number>()
  let dir: string
  let cert: string
  let server: https.Server
  let base: string
  let u: Sandbox

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bookdrop-tls-'))
    const keyPath = join(dir, 'key.pem')
    const certPath = join(dir, 'cert.pem')
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyPath,
        '-out', certPath, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      { stdio: 'ignore' },
    ) // prettier-ignore
    cert = readFileSync(certPath, 'utf8')
    server = https.createServer({ key: readFileSync(keyPath), cert }, (req, res) => {
      const path = (req.url ?? '').split('?')[0] ?? ''
      hits.set(path, (hits.get(path) ?? 0) + 1)
      if (path === '/receipt.txt') res.end(RECEIPT)
      else if (path.startsWith('/hang'))
        return // never answers
      else res.writeHead(404).end('not here')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const addr = server.address()
    base = `https://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`
    u = await start(businessFixtures(), { urlFetchCa: cert, urlFetchTimeoutMs: 300 })
  })

  afterAll(async () => {
    await u?.stop()
    server?.closeAllConnections()
    await new Promise((resolve) => server?.close(resolve))
    rmSync(dir, { recursive: true, force: true })
  })

  const urlBody = (file: string, extra: Record<string, unknown> = {}) => ({
    prompt: 'receipt by link',
    attachments: [{ file, type: 'url' }],
    ...extra,
  })

  it('http:// (not https) → 400', async () => {
    const f = failureOf(
      await as1(u, 'POST', '/expenses', { body: urlBody('http://127.0.0.1/receipt.txt') }),
      400,
    )
    expect(f.message).toMatch(/^attachments\.0\.file: .*https/)
  })

  it('fetched once, named after its path, and logged with the sha256 of the fetched bytes', async () => {
    const job = await createAndWait(u, '/expenses', urlBody(`${base}/receipt.txt?sig=abc`))
    expect(job.status).toBe('completed')
    const rec = dataOf(recordSchema, await as1(u, 'GET', `/expenses/${job.resource_uuid}`))
    expect(rec).toMatchObject({
      amount: 4500,
      date: '2026-01-08',
      contact: 'Kiosk 24 Lekki',
      attachment_name: 'receipt.txt',
    })
    await waitForJob(u, job.job_reference) // reading the job again fetches nothing
    expect(hits.get('/receipt.txt')).toBe(1)
    const logged = (await creates(u)).find((c) => c.uuid === job.resource_uuid)
    const bytes = Buffer.from(RECEIPT)
    expect(logged?.attachments).toEqual([{ name: 'receipt.txt', sha256: sha256(bytes), bytes: bytes.length }])
  })

  it('non-2xx → failed job with a reason (no query string in it)', async () => {
    const job = await createAndWait(u, '/expenses', urlBody(`${base}/missing.pdf?token=secret`))
    expect(job.status).toBe('failed')
    expect(job.message).toMatch(/missing\.pdf failed: HTTP 404/)
    expect(job.message).not.toMatch(/secret/)
    expect(hits.get('/missing.pdf')).toBe(1)
  })

  it('timeout → failed job', async () => {
    const job = await createAndWait(u, '/expenses', urlBody(`${base}/hang/slow.pdf`))
    expect(job).toMatchObject({ status: 'failed', resource_uuid: null })
    expect(job.message).toMatch(/timed out after 300 ms/)
    expect(hits.get('/hang/slow.pdf')).toBe(1)
  })

  it('direct mode: a failed fetch → 400 with the reason', async () => {
    const f = failureOf(
      await as1(u, 'POST', '/expenses', { body: urlBody(`${base}/gone.txt`, { process_type: 'direct' }) }),
      400,
    )
    expect(f.message).toMatch(/gone\.txt failed: HTTP 404/)
  })

  it('a certificate the sandbox does not trust → failed job', async () => {
    const job = await createAndWait(sb, '/expenses', urlBody(`${base}/receipt.txt`))
    expect(job.status).toBe('failed')
    expect(job.message).toMatch(/receipt\.txt failed: .*certificate/i)
  })
})
