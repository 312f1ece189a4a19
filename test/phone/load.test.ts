/**
 * The phone listener under load (issue 31, item 13), over real HTTP: pages of one document that
 * arrive at the same moment, and a peer on the network holding connections open (slowloris) while a
 * real phone sends a photo.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { request } from 'node:http'
import { type Socket, connect } from 'node:net'
import { describe, expect, it } from 'vitest'
import { pdfPages, phoneJpeg } from '../prepare/photos'
import { type Phone, type Reply, openPaired, usePhoneRig } from './rig'

const rig = usePhoneRig()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

async function creates(origin: string): Promise<{ attachments: { name: string; sha256: string }[] }[]> {
  return ((await (await fetch(`${origin}/_sandbox/creates`)).json()) as { data: never[] }).data
}

/** An upload whose body stops one byte short until `finish()`. */
function heldUpload(phone: Phone, bytes: Buffer, q: Record<string, string>): { finish(): void; reply: Promise<Reply> } {
  const url = new URL(phone.base)
  const query = new URLSearchParams({ target: 'expenses', ...q })
  let finish = () => {}
  const reply = new Promise<Reply>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/upload?${query}`,
        agent: false,
        headers: {
          Host: phone.authority,
          Origin: phone.base,
          'User-Agent': phone.userAgent,
          Cookie: phone.cookie,
          'Content-Type': 'image/jpeg',
          'Content-Length': String(bytes.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: JSON.parse(text) as unknown })
        })
      },
    )
    req.on('error', reject)
    req.write(bytes.subarray(0, bytes.length - 1))
    finish = () => req.end(bytes.subarray(bytes.length - 1))
  })
  return { finish: () => finish(), reply }
}

describe('pages of one document arriving together', () => {
  it('end as one document with both pages: one row, one create', async () => {
    const r = await openPaired(await rig())
    const pages = [await phoneJpeg({ width: 1200, height: 1600, label: 'PAGE 1' }), await phoneJpeg({ width: 1200, height: 1600, label: 'PAGE 2' })]
    // Both bodies all but their last byte, then both last bytes in the same moment.
    const held = pages.map((bytes, i) =>
      heldUpload(r.phone, bytes, { id: `together-page-0${i + 1}`, doc: 'together-doc-001', page: String(i + 1), pages: '2', name: `page${i + 1}.jpg` }),
    )
    await new Promise((res) => setTimeout(res, 500))
    for (const h of held) h.finish()
    const answers = await Promise.all(held.map((h) => h.reply))
    expect(answers.map((a) => a.status)).toEqual([200, 200])
    expect(answers.map((a) => (a.json as { status: string }).status).sort()).toEqual(['received', 'sent'])
    await r.host.service.engine.whenIdle()
    const rows = r.host.service.engine.history().rows
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({ source: 'phone', status: 'completed' })
    const pdf = await readFile(rows[0]!.path)
    expect(await pdfPages(pdf)).toBe(2)
    expect(await creates(r.sb.origin)).toEqual([expect.objectContaining({ attachments: [expect.objectContaining({ sha256: sha(pdf) })] })])
  })
})

/** A peer on 127.0.0.2 (another address of the loopback) opening a connection to the listener. */
function peer(base: string): Promise<Socket> {
  const url = new URL(base)
  return new Promise((resolve) => {
    const s = connect({ host: url.hostname, port: Number(url.port), localAddress: '127.0.0.2' })
    s.on('error', () => {})
    s.once('connect', () => resolve(s))
    s.once('close', () => resolve(s))
  })
}

describe('a peer holding connections open (slowloris)', () => {
  it('cannot stop a real phone’s upload from being answered within seconds', async () => {
    const r = await openPaired(await rig())
    const host = r.phone.authority
    const sockets: Socket[] = []
    const timers: NodeJS.Timeout[] = []
    try {
      for (let i = 0; i < 120; i++) {
        const s = await peer(r.phone.base)
        sockets.push(s)
        if (s.destroyed) continue
        if (i % 3 === 0) {
          // Headers trickled, a byte a second.
          s.write(`GET /state HTTP/1.1\r\nHost: ${host}\r\n`)
          timers.push(setInterval(() => s.writable && s.write('X'), 1000))
        } else if (i % 3 === 1) {
          // A body announced and never finished.
          s.write(`POST /pair HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${r.phone.base}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`)
        }
        // The rest: open and silent.
      }
      const started = Date.now()
      const photo = await phoneJpeg({ width: 900, height: 1200, label: 'THROUGH' })
      const up = await r.phone.upload(photo, { id: 'through-photo-01', name: 'through.jpg' })
      expect(up.status).toBe(200)
      expect(up.json).toMatchObject({ status: 'sent' })
      expect(Date.now() - started).toBeLessThan(5000)
      // The peer kept a few of its connections at most; the trickled headers are cut after 10 s.
      const alive = () => sockets.filter((s) => !s.destroyed).length
      expect(alive()).toBeLessThanOrEqual(8)
      await new Promise((res) => setTimeout(res, 12_000))
      expect(sockets.filter((s, i) => i % 3 === 0 && !s.destroyed)).toEqual([])
    } finally {
      for (const t of timers) clearInterval(t)
      for (const s of sockets) s.destroy()
    }
  }, 60_000)
})
