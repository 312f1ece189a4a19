/**
 * The emulator reads documents in a worker with limits (design.md §1, issue 23): a document that
 * passes a limit fails its job with a reason naming the file and the limit, and the server answers
 * other requests all the while. The demo runs the emulator inside the app's own process, so a
 * document must never be able to stop that process from answering.
 */
import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox/index'
import { K1, as1, b64, businessFixtures, createAndWait, creates } from './business-helpers'

async function manyPagePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([300, 400])
    for (let l = 0; l < 20; l++) page.drawText(`Line ${l} of page ${i}: total 12.50 NGN`, { x: 20, y: 380 - l * 16, size: 9 })
  }
  return Buffer.from(await doc.save())
}

describe('documents past a limit of the reader', () => {
  let sb: Sandbox
  beforeAll(async () => {
    // A time limit no PDF can meet: every document passes it.
    sb = await startSandbox({ fixtures: businessFixtures(), documentLimits: { timeoutMs: 1 } })
  })
  afterAll(() => sb.stop())

  it('fail their job naming the file and the limit; the rest of the API answers meanwhile', async () => {
    const balance = sb.state.businesses.get('b1')!.credit_balance
    const pdf = await manyPagePdf(20)
    const job = await createAndWait(sb, '/expenses', {
      prompt: 'Receipt',
      attachments: [{ file: b64(pdf), type: 'base64', name: 'hostile.pdf' }],
    })
    expect(job.status).toBe('failed')
    expect(job.message).toMatch(/hostile\.pdf could not be read: Reading the document took longer than/)
    const list = await as1(sb, 'GET', '/expenses')
    expect(list.status).toBe(200)
    // Nothing was created, and the credit was given back.
    expect(await creates(sb)).toEqual([])
    expect(sb.state.businesses.get('b1')!.credit_balance).toBe(balance)
  })

  it('read a text file in the worker too: its extraction fails with the limit, never on the server thread', async () => {
    const text = await createAndWait(sb, '/expenses', {
      prompt: 'Receipt',
      attachments: [{ file: b64('Vendor: Shop\nTotal NGN 500'), type: 'base64', name: 'r.txt' }],
    }, K1)
    expect(text.status).toBe('failed')
    expect(text.message).toMatch(/the attachments could not be read: Reading the document took longer than/)
  })

  it('answer 400 in direct mode with the same reason', async () => {
    const pdf = await manyPagePdf(2)
    const res = await as1(sb, 'POST', '/expenses', {
      body: { prompt: 'Receipt', process_type: 'direct', attachments: [{ file: b64(pdf), type: 'base64', name: 'slow.pdf' }] },
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain('slow.pdf could not be read')
  })
})

describe('stopping the emulator while a document is read', () => {
  it('ends the reading at once', async () => {
    const sb = await startSandbox({ fixtures: businessFixtures(), documentLimits: { timeoutMs: 60_000 } })
    const pdf = await manyPagePdf(20)
    const pending = as1(sb, 'POST', '/expenses', {
      body: { prompt: 'Receipt', process_type: 'direct', attachments: [{ file: b64(pdf), type: 'base64', name: 'a.pdf' }] },
    }).catch(() => null)
    await new Promise((r) => setTimeout(r, 50))
    const t = performance.now()
    await sb.stop()
    expect(performance.now() - t).toBeLessThan(3000)
    await pending
  })
})
