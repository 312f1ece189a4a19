/**
 * `npm run bench -- --only mail` (issue 24): mail intake against a real Dovecot on loopback (the
 * tests' server, test/mail/dovecot-server.ts; needs dovecot-imapd) and the emulator.
 *
 * - 500 mails with one 200 KB PDF each already in the inbox, `headless --mail … --once`: every
 *   attachment created once; the engine's CPU against the same 500 files dropped into a folder
 *   (`headless --watch … --once`), both whole processes of the built headless timed from outside,
 *   three interleaved pairs; the mail run's peak RSS.
 * - A new mail while watching with IDLE: from the moment the server stored it (APPEND answered)
 *   to the moment its upload starts (the headless "sending" line), p50 and p99.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Sandbox } from '../../sandbox'
import { HAVE_DOVECOT, MAIL_PASSWORD, MAIL_USER, startDovecot } from '../../test/mail/dovecot-server'
import { mime } from '../../test/mail/mime'

import { headlessNodeFlags } from './procs'
import type { BenchRow, Timed } from './rows'

/** A row of the mail scenario (the bench's one row shape). */
export type MailBenchRow = BenchRow

const MB = 1024 * 1024

export async function mailBench(o: {
  root: string
  work: string
  sb: Sandbox
  key: string
  quick: boolean
  timed: (cmd: string, args: string[], env?: NodeJS.ProcessEnv) => Promise<Timed>
  median: (xs: number[]) => number
  pct: (xs: number[], p: number) => number
}): Promise<MailBenchRow[]> {
  if (!HAVE_DOVECOT)
    return [
      {
        what: 'mail: Dovecot is not installed (apt-get install dovecot-imapd)',
        figure: '—',
        target: '',
        ok: false,
      },
    ]
  const rows: MailBenchRow[] = []
  const MAILS = o.quick ? 100 : 500
  const dv = await startDovecot()
  try {
    // As `npm run headless` starts it (its node flags), both for mail and for the folder it is compared with.
    const headless = [...headlessNodeFlags(o.root), join(o.root, 'out/node/headless.js')]
    const env = { BOOKDROP_API_KEY: o.key, BOOKDROP_MAIL_PASSWORD: MAIL_PASSWORD }
    const url = (box: string) => `imap://${encodeURIComponent(MAIL_USER)}@127.0.0.1:${dv.port}/${box}`
    const common = (data: string) => [
      '--base-url',
      o.sb.url,
      '--data-dir',
      join(o.work, data),
      '--target',
      'expenses',
      '--concurrency',
      '3',
    ]

    // The same 500 PDFs in the inbox and in a folder.
    const folder = join(o.work, 'mail-folder')
    await mkdir(folder)
    const shas = new Set<string>()
    const c = await dv.client()
    try {
      for (let i = 0; i < MAILS; i++) {
        const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(200 * 1024 - 9)])
        const name = `receipt-${String(i).padStart(3, '0')}.pdf`
        shas.add(createHash('sha256').update(pdf).digest('hex'))
        await writeFile(join(folder, name), pdf)
        await c.append(
          'INBOX',
          mime({
            subject: `Receipt ${i}`,
            text: 'Your receipt is attached.',
            attachments: [{ filename: name, type: 'application/pdf', content: pdf }],
          }),
        )
      }
    } finally {
      await c.logout()
    }

    const createdSince = async (from: number): Promise<Map<string, number>> => {
      const res = await fetch(`${o.sb.origin}/_sandbox/creates`)
      const all = ((await res.json()) as { data: { attachments: { sha256: string }[] }[] }).data.slice(from)
      const m = new Map<string, number>()
      for (const e of all) for (const a of e.attachments) m.set(a.sha256, (m.get(a.sha256) ?? 0) + 1)
      return m
    }
    const createCount = async () =>
      ((await (await fetch(`${o.sb.origin}/_sandbox/creates`)).json()) as { data: unknown[] }).data.length

    const mails: Timed[] = []
    const folders: Timed[] = []
    let exactlyOnce = true
    for (let round = 0; round < 3; round++) {
      const before = await createCount()
      const m = await o.timed(
        process.execPath,
        [...headless, '--mail', url('INBOX'), ...common(`mail-data-${round}`), '--once'],
        env,
      )
      if (m.code !== 0) throw new Error(`headless --mail --once exited ${m.code}: ${m.out.slice(-600)}`)
      const made = await createdSince(before)
      exactlyOnce &&= made.size === shas.size && [...shas].every((s) => made.get(s) === 1)
      mails.push(m)
      const f = await o.timed(
        process.execPath,
        [...headless, '--watch', folder, ...common(`folder-data-${round}`), '--once'],
        env,
      )
      if (f.code !== 0) throw new Error(`headless --watch --once exited ${f.code}: ${f.out.slice(-600)}`)
      folders.push(f)
    }
    const ratio = o.median(mails.map((m, i) => m.cpuMs / folders[i]!.cpuMs))
    // The same commands with nothing to read: what a run costs before its first receipt (start-up,
    // loading the IMAP client, connecting, the database), to tell it from the cost per receipt.
    const emptyFolder = join(o.work, 'mail-folder-empty')
    await mkdir(emptyFolder)
    await dv.append('Empty', mime({ subject: 'nothing attached', text: 'x' }))
    const mailEmpty: number[] = []
    const folderEmpty: number[] = []
    for (let round = 0; round < 3; round++) {
      mailEmpty.push(
        (
          await o.timed(
            process.execPath,
            [...headless, '--mail', url('Empty'), ...common(`mail-empty-${round}`), '--once'],
            env,
          )
        ).cpuMs,
      )
      folderEmpty.push(
        (
          await o.timed(
            process.execPath,
            [...headless, '--watch', emptyFolder, ...common(`folder-empty-${round}`), '--once'],
            env,
          )
        ).cpuMs,
      )
    }
    const perMail = (o.median(mails.map((m) => m.cpuMs)) - o.median(mailEmpty)) / MAILS
    const perFile = (o.median(folders.map((f) => f.cpuMs)) - o.median(folderEmpty)) / MAILS
    rows.push({
      what: `${MAILS} mails × one 200 KB PDF, headless --mail --once: every attachment created once (3 runs)`,
      figure: exactlyOnce ? 'yes' : 'NO',
      target: 'yes',
      ok: exactlyOnce,
    })
    rows.push({
      what: '  CPU vs the same files dropped into a folder (--watch --once), median of 3 pairs',
      figure: ratio.toFixed(2),
      target: '≤ 1.3',
      ok: ratio <= 1.3,
    })
    rows.push({
      what: `  CPU time: mail ${(o.median(mails.map((m) => m.cpuMs)) / 1000).toFixed(2)} s, folder ${(o.median(folders.map((f) => f.cpuMs)) / 1000).toFixed(2)} s; wall: mail ${(o.median(mails.map((m) => m.wallMs)) / 1000).toFixed(1)} s, folder ${(o.median(folders.map((f) => f.wallMs)) / 1000).toFixed(1)} s`,
      figure: '',
      target: '',
      ok: null,
    })
    rows.push({
      what: `  per receipt, the run's CPU less an empty run's (start-up: mail ${o.median(mailEmpty).toFixed(0)} ms, folder ${o.median(folderEmpty).toFixed(0)} ms): mail ${perMail.toFixed(2)} ms, folder ${perFile.toFixed(2)} ms; ratio`,
      figure: (perMail / perFile).toFixed(2),
      target: '',
      ok: null,
    })
    const peak = Math.max(...mails.map((m) => m.peakRss))
    rows.push({
      what: '  peak RSS of the mail run (highest of 3)',
      figure: `${(peak / MB).toFixed(0)} MB`,
      target: '< 200 MB',
      ok: peak < 200 * MB,
    })

    // A new mail while watching (IDLE): stored by the server → its upload starts.
    const LIVE = o.quick ? 8 : 20
    await dv.append('Live', mime({ subject: 'start', text: 'nothing attached' }))
    const watch: ChildProcess = spawn(
      process.execPath,
      [...headless, '--mail', url('Live'), ...common('mail-live'), '--mail-after', 'leave'],
      {
        cwd: o.root,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const sendingAt = new Map<string, number>()
    let out = ''
    watch.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      for (const m of d.toString().matchAll(/sending\s+#\d+ (live-\d+\.pdf)/g))
        if (!sendingAt.has(m[1]!)) sendingAt.set(m[1]!, Date.now())
    })
    try {
      const until = Date.now() + 30_000
      while (!/connected \(IDLE\)/.test(out) && Date.now() < until)
        await new Promise((r) => setTimeout(r, 50))
      await new Promise((r) => setTimeout(r, 500))
      const storedAt = new Map<string, number>()
      for (let i = 0; i < LIVE; i++) {
        const name = `live-${i}.pdf`
        const raw = mime({
          subject: `Live ${i}`,
          attachments: [
            {
              filename: name,
              type: 'application/pdf',
              content: Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20 * 1024)]),
            },
          ],
        })
        await dv.append('Live', raw)
        storedAt.set(name, Date.now())
        const deadline = Date.now() + 15_000
        while (!sendingAt.has(name) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
        await new Promise((r) => setTimeout(r, 300 + Math.random() * 300))
      }
      const lat = [...storedAt].map(([n, t]) => (sendingAt.get(n) ?? NaN) - t)
      const p50 = o.pct(lat, 50)
      rows.push({
        what: 'a new mail with IDLE: stored by the server → request sent, p50',
        figure: `${p50.toFixed(0)} ms`,
        target: '< 2 s',
        ok: p50 < 2000,
      })
      rows.push({
        what: `  p99 (${LIVE} mails)`,
        figure: `${o.pct(lat, 99).toFixed(0)} ms`,
        target: '',
        ok: null,
      })
    } finally {
      watch.kill('SIGTERM')
      await new Promise((r) => watch.once('exit', r))
    }
  } finally {
    await dv.stop()
  }
  return rows
}
