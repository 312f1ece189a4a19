/**
 * Issue 33's table, row by row and way by way: the same receipt arriving twice (the same bytes, a
 * re-downloaded invoice, a photo re-encoded at q70 or scaled 4000×3000 → 1600×1200) costs ONE create;
 * two receipts of one shop cost two. Each row goes through a drop (Engine.addFiles, as the desktop
 * drop calls it), a watched folder, a mail (the test Dovecot) and a phone (the listener over HTTP),
 * plus the ways across sources (mail then folder, two watched folders). Real PDFs and photos drawn by
 * the test (../fingerprint/receipts.ts), the real engine and fingerprint worker, real SQLite, the
 * emulator over HTTP; creates are counted at the emulator (its create log), never in our tables.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { UploadSource } from '../../contract/types'
import type { Sandbox } from '../../sandbox'
import type { Engine } from '../../src-main/core/engine'
import type { Upload } from '../../src-main/core/store/uploads'
import { otherTotal, receipt, receiptPdf, receiptPhoto, reencode, rescale } from '../fingerprint/receipts'
import { describeMail, useDovecot } from '../mail/dovecot'
import { mailRig, mailRule, receiptsMail } from '../mail/held-mail'
import { openPaired, usePhoneRig } from '../phone/rig'
import { PROFILE, type Rig, creates, useRigs, waitFor } from './helpers'
import { drop, settled, statusOf } from './held-helpers'

const rigs = useRigs()
const phoneRigs = usePhoneRig()
const dv = useDovecot()

interface Doc {
  name: string
  bytes: Uint8Array
  type: 'application/pdf' | 'image/jpeg'
}
const pdf = (name: string, bytes: Uint8Array): Doc => ({ name, bytes, type: 'application/pdf' })
const jpg = (name: string, bytes: Uint8Array): Doc => ({ name, bytes, type: 'image/jpeg' })

/** One way in: the engine behind it, its emulator, and how a document is sent that way. */
interface Way {
  engine: Engine
  sb: Sandbox
  /** Sends `doc` this way; the row intake recorded for it. */
  send(doc: Doc): Promise<Upload>
}

const once = <T>(make: () => Promise<T>): (() => Promise<T>) => {
  let p: Promise<T> | undefined
  return () => (p ??= make())
}
const photo = once(() => receiptPhoto(receipt(2, 5))) // 4000 × 3000
const shopPhoto = once(() => receiptPhoto(receipt(3, 9), { width: 2000, height: 1500 }))

/** A row of the table: the pair of documents, what the second one becomes, the creates expected. */
interface Row {
  row: string
  second: 'duplicate' | 'held' | 'completed'
  creates: number
  docs(): Promise<[Doc, Doc]>
}

const SAME_BYTES: Row = {
  row: 'the same PDF bytes',
  second: 'duplicate',
  creates: 1,
  docs: async () => {
    const bytes = await receiptPdf(receipt(0, 21))
    return [pdf('shop.pdf', bytes), pdf('shop copy.pdf', bytes)]
  },
}
const REDOWNLOAD: Row = {
  row: 'an invoice downloaded twice (only /CreationDate, /ModDate, /ID differ)',
  second: 'held',
  creates: 1,
  docs: async () => {
    const rc = receipt(1, 22)
    return [pdf('invoice.pdf', await receiptPdf(rc, 0)), pdf('invoice (1).pdf', await receiptPdf(rc, 1))]
  },
}
const REENCODE: Row = {
  row: 'a photo, then the same photo re-encoded at JPEG quality 70',
  second: 'held',
  creates: 1,
  docs: async () => [jpg('IMG_0001.jpg', await photo()), jpg('IMG_0001-q70.jpg', await reencode(await photo(), 70))],
}
const RESCALE: Row = {
  row: 'a photo at 4000×3000, then the same photo at 1600×1200',
  second: 'held',
  creates: 1,
  docs: async () => [jpg('IMG_0002.jpg', await photo()), jpg('IMG_0002-small.jpg', await rescale(await photo(), 1600, 1200))],
}
const SHOP_PDFS: Row = {
  row: 'two receipts of one shop, other lines and total (PDFs)',
  second: 'completed',
  creates: 2,
  docs: async () => [pdf('shop-a.pdf', await receiptPdf(receipt(3, 9))), pdf('shop-b.pdf', await receiptPdf(receipt(3, 10)))],
}
const SHOP_PHOTOS: Row = {
  row: 'two receipts of one shop, only the total differs (photos)',
  second: 'completed',
  creates: 2,
  docs: async () => [
    jpg('shop-a.jpg', await shopPhoto()),
    jpg('shop-b.jpg', await receiptPhoto(otherTotal(receipt(3, 9), 1, 4), { width: 2000, height: 1500 })),
  ],
}
const ROWS: Row[] = [SAME_BYTES, REDOWNLOAD, REENCODE, RESCALE, SHOP_PDFS, SHOP_PHOTOS]

/** What each case observed at the emulator, printed after the file (the report's table). */
const observed: string[] = []
afterAll(() => {
  if (observed.length) console.log(`creates at the emulator:\n${observed.join('\n')}`)
})

/** The first row of `source` recorded after `known` (the ids there before). */
function newRow(engine: Engine, source: UploadSource, known: Set<number>): Promise<Upload> {
  return waitFor(
    `a new ${source} row`,
    () => engine.history({ sources: [source] }).rows.find((u) => !known.has(u.id)),
    60_000,
  )
}
const ids = (engine: Engine, source: UploadSource) => new Set(engine.history({ sources: [source] }).rows.map((u) => u.id))

function dropWay(r: Rig): Way {
  return { engine: r.engine, sb: r.sb, send: (doc) => drop(r, doc.name, doc.bytes) }
}

/** A watched folder `dir` of the rig (watched from its first document on). */
function folderWay(r: Rig, dir: string): Way {
  const watched = once(async () => {
    await mkdir(dir, { recursive: true })
    await r.engine.addFolder({ profileId: PROFILE, path: dir, target: 'expenses' })
  })
  return {
    engine: r.engine,
    sb: r.sb,
    async send(doc) {
      await watched()
      const known = ids(r.engine, 'watch')
      await writeFile(join(dir, doc.name), doc.bytes)
      return newRow(r.engine, 'watch', known)
    },
  }
}

/** A mailbox of the test Dovecot read by a rule of the rig: each document in a mail of its own. */
function mailWay(r: Rig, mailbox: string): Way {
  let account: string | undefined
  return {
    engine: r.engine,
    sb: r.sb,
    async send(doc) {
      const known = ids(r.engine, 'mail')
      await dv.server.append(mailbox, receiptsMail(`Receipt ${doc.name}`, [doc]))
      if (account) await (await r.engine.mail()).checkNow(account)
      else account = (await mailRule(r, dv.server.port, mailbox)).id
      return newRow(r.engine, 'mail', known)
    },
  }
}

async function phoneWay(): Promise<Way> {
  const r = await openPaired(await phoneRigs())
  const engine = r.host.service.engine
  let n = 0
  return {
    engine,
    sb: r.sb,
    async send(doc) {
      const known = ids(engine, 'phone')
      const id = `table-photo-${String(++n).padStart(4, '0')}`
      const res = await r.phone.upload(Buffer.from(doc.bytes), { id, name: doc.name }, { 'Content-Type': doc.type })
      if (res.status !== 200) throw new Error(`the phone's upload of ${doc.name} answered ${res.status}: ${res.text}`)
      return newRow(engine, 'phone', known)
    },
  }
}

/**
 * The first document by `first`, sent (its record made), then the second by `then`: the second
 * ends as the row says, and the emulator saw the row's number of creates.
 */
async function play(row: Row, way: string, first: Way, then: Way = first): Promise<void> {
  const [a, b] = await row.docs()
  const one = await first.send(a)
  await settled(first, one.id)
  const two = await then.send(b)
  await waitFor(`${b.name} ${row.second}`, () => statusOf(then, two.id) === row.second, 60_000)
  if (row.second === 'held') expect(then.engine.uploads.get(two.id)?.nearOf).toBe(one.id)
  await then.engine.whenIdle()
  const made = (await creates(then.sb)).length
  observed.push(`${row.row} | ${way} | ${made} (expected ${row.creates}; the second ${statusOf(then, two.id)})`)
  expect(made).toBe(row.creates)
}

const SLOW = 120_000

describe('the table of issue 33: one receipt, booked once, however it arrives', () => {
  describe('drop (Engine.addFiles, as the desktop drop)', () => {
    for (const row of ROWS)
      it(row.row, async () => {
        await play(row, 'drop', dropWay(await rigs()))
      }, SLOW)
  })

  describe('a watched folder', () => {
    for (const row of ROWS)
      it(row.row, async () => {
        const r = await rigs()
        await play(row, 'folder', folderWay(r, join(r.dir, 'Receipts')))
      }, SLOW)

    it('the same PDF saved into two watched folders at once: one create', async () => {
      const r = await rigs()
      const bytes = await receiptPdf(receipt(5, 23))
      const dirs = [join(r.dir, 'Downloads'), join(r.dir, 'Invoices')]
      for (const dir of dirs) {
        await mkdir(dir)
        await writeFile(join(dir, 'supplier.pdf'), bytes)
      }
      for (const dir of dirs) await r.engine.addFolder({ profileId: PROFILE, path: dir, target: 'expenses' })
      const rows = await waitFor('both files recorded, one sent', () => {
        const rows = r.engine.history({ sources: ['watch'] }).rows
        const statuses = rows.map((u) => u.status).sort()
        return rows.length === 2 && statuses[0] === 'completed' && statuses[1] === 'duplicate' ? rows : null
      }, 60_000)
      await r.engine.whenIdle()
      const made = (await creates(r.sb)).length
      observed.push(`the same PDF saved into two watched folders | folder + folder | ${made} (expected 1)`)
      expect(made).toBe(1)
      expect(new Set(rows.map((u) => u.path)).size).toBe(2)
    }, SLOW)
  })

  describeMail('mail (the test Dovecot)', () => {
    let box = 0
    for (const row of ROWS)
      it(row.row, async () => {
        const r = await mailRig(rigs)
        await play(row, 'mail', mailWay(r, `Table${++box}`))
      }, SLOW)

    it('the same PDF bytes by mail, then saved into a watched folder: one create', async () => {
      const r = await mailRig(rigs)
      await play(SAME_BYTES, 'mail then folder', mailWay(r, 'MailThenFolder'), folderWay(r, join(r.dir, 'Receipts')))
    }, SLOW)
  })

  describe('phone (the listener over HTTP)', () => {
    for (const row of ROWS)
      it(row.row, async () => {
        await play(row, 'phone', await phoneWay())
      }, SLOW)
  })
})

describe('Discard forgets the fingerprint (issue 33)', () => {
  it('a discarded copy is never what a later copy is held against; with its original gone too, the next copy is sent', async () => {
    const r = await rigs()
    const rc = receipt(6, 24)
    r.engine.pause(PROFILE)
    const original = await drop(r, 'rent.pdf', await receiptPdf(rc, 0))
    const copy = await drop(r, 'rent (1).pdf', await receiptPdf(rc, 1))
    expect(copy).toMatchObject({ status: 'held', nearOf: original.id })
    expect(r.engine.fingerprints.index.of(copy.id)).not.toBeNull()
    r.engine.held.discard(copy.id)
    expect(r.engine.fingerprints.index.of(copy.id)).toBeNull()
    r.engine.cancel(original.id)
    r.engine.resume(PROFILE)
    // Neither the discarded copy nor the cancelled original was booked: a third download is sent.
    const third = await drop(r, 'rent (2).pdf', await receiptPdf(rc, 2))
    expect(third).toMatchObject({ status: 'queued', nearOf: null })
    await settled(r, third.id)
    expect(await creates(r.sb)).toHaveLength(1)
    // Once that one is booked, a fourth download is held against it (not the discarded copy).
    const fourth = await drop(r, 'rent (3).pdf', await receiptPdf(rc, 3))
    expect(fourth).toMatchObject({ status: 'held', nearOf: third.id })
    await r.engine.whenIdle()
    expect(await creates(r.sb)).toHaveLength(1)
  }, SLOW)
})
