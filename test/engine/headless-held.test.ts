/**
 * Issue 33 on the command line, as a person runs it: a real child process, a real folder, the
 * emulator over HTTP. A re-downloaded invoice is held (its own line, counted in the summary), listed
 * by --held, discarded or sent by id; --duplicates send sends a near match with its note.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type Run, HEADLESS_CLI, rigArgs, runCommand, useHeadlessRig } from './headless-helpers'
import { KEY, creates } from './helpers'
import { receipt, receiptPdf } from '../fingerprint/receipts'

function run(args: string[]): Run {
  return runCommand([...HEADLESS_CLI, ...args], { ...process.env, BOOKDROP_API_KEY: KEY })
}

const rig = useHeadlessRig('bookdrop-headless-held-')

describe('headless: possible duplicates (issue 33)', () => {
  it('holds a re-download on its own line, counts it, and --held / --send-held / --discard-held / --duplicates act on it', async () => {
    const inbox = await rig.folder('inbox')
    const args = rigArgs(rig, 'data')
    const rc = receipt(1, 21)
    await writeFile(join(inbox, 'invoice.pdf'), await receiptPdf(rc, 0))
    const first = run(['--watch', inbox, '--once', ...args])
    expect(await first.exit, first.out()).toBe(0)
    expect(await creates(rig.sb)).toHaveLength(1)

    await writeFile(join(inbox, 'invoice (1).pdf'), await receiptPdf(rc, 1))
    const second = run(['--watch', inbox, '--once', ...args])
    expect(await second.exit, second.out()).toBe(0)
    const line = /HELD\s+#(\d+) invoice \(1\)\.pdf: Possible duplicate of invoice\.pdf, sent on \d{4}-\d{2}-\d{2} \(same text\)\. Send it with --send-held (\d+), or --discard-held \d+/.exec(second.out())
    expect(line, second.out()).not.toBeNull()
    const id = Number(line![1])
    expect(second.out()).toMatch(/summary: 0 completed, 0 failed, 1 possible duplicate \(1 file\)/)
    expect(await creates(rig.sb)).toHaveLength(1)

    const listed = run(['--held', ...args])
    expect(await listed.exit, listed.out()).toBe(0)
    expect(listed.out()).toMatch(new RegExp(`HELD\\s+#${id} invoice \\(1\\)\\.pdf: Possible duplicate of invoice\\.pdf`))
    expect(listed.out()).toMatch(/held: 1 possible duplicate waiting for you/)

    const wrong = run(['--discard-held', '99999', ...args])
    expect(await wrong.exit, wrong.out()).toBe(2)
    expect(wrong.out()).toMatch(/--discard-held 99999: there is no upload #99999 for this profile/)
    const bad = run(['--duplicates', 'maybe', '--held', ...args])
    expect(await bad.exit).toBe(2)
    expect(bad.out()).toMatch(/--duplicates must be hold .* or send/)

    const sent = run(['--send-held', String(id), ...args])
    expect(await sent.exit, sent.out()).toBe(0)
    expect(sent.out()).toMatch(new RegExp(`done\\s+#${id} invoice \\(1\\)\\.pdf -> .*\\[Possible duplicate of invoice\\.pdf`))
    expect(await creates(rig.sb)).toHaveLength(2)

    // A third download: held again (another row), then discarded: nothing more is created.
    await writeFile(join(inbox, 'invoice (2).pdf'), await receiptPdf(rc, 2))
    const third = run(['--watch', inbox, '--once', ...args])
    expect(await third.exit, third.out()).toBe(0)
    const id3 = Number(/HELD\s+#(\d+) invoice \(2\)\.pdf/.exec(third.out())![1])
    const discarded = run(['--discard-held', String(id3), '--held', ...args])
    expect(await discarded.exit, discarded.out()).toBe(0)
    expect(discarded.out()).toMatch(/held: no possible duplicate is waiting for you/)
    expect(await creates(rig.sb)).toHaveLength(2)

    // --duplicates send: this run sends a near match, and its line still says what it looks like.
    await writeFile(join(inbox, 'invoice (3).pdf'), await receiptPdf(rc, 3))
    const send = run(['--watch', inbox, '--once', '--duplicates', 'send', ...args])
    expect(await send.exit, send.out()).toBe(0)
    expect(send.out()).toMatch(/done\s+#\d+ invoice \(3\)\.pdf -> .*\[Possible duplicate of invoice\.pdf, sent on .* \(same text\)\]/)
    expect(await creates(rig.sb)).toHaveLength(3)
  }, 120_000)
})
