/**
 * writers.ts: on Linux, /proc tells whether a program still holds a file open for writing. Real
 * child processes hold the files.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, realpath, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { encodeFsName } from '../../src-main/core/names'
import { ProcWriterProbe } from '../../src-main/core/watch/writers'
import { cleanup, tempDir } from './helpers'

const children: ChildProcess[] = []
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
  await cleanup()
})

/** A child that opens `file` with `flags` and holds it until killed; resolves once it is open. */
function holder(file: string | Buffer, flags: string): Promise<ChildProcess> {
  const p = spawn(
    process.execPath,
    ['-e', `const fs=require('fs');fs.openSync(Buffer.from(process.argv[1],'hex'),process.argv[2]);console.log('open');setInterval(()=>{},1000)`, Buffer.from(file).toString('hex'), flags],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  children.push(p)
  return new Promise((res, rej) => {
    p.stdout!.once('data', () => res(p))
    p.once('exit', (code) => rej(new Error(`holder exited ${code}`)))
  })
}

describe.runIf(process.platform === 'linux')('who still writes a file (/proc)', () => {
  it('a program holding a file open for writing is seen; one reading it is not; none after it closed', async () => {
    const dir = await realpath(await tempDir())
    const w = path.join(dir, 'being-written.pdf')
    const r = path.join(dir, 'being-read.pdf')
    await writeFile(w, 'x')
    await writeFile(r, 'x')
    const probe = new ProcWriterProbe(encodeFsName)
    expect(probe.available).toBe(true)
    const writer = await holder(w, 'a')
    await holder(r, 'r')
    let answer = await probe.writing([w, r])
    expect(answer.get(w)).toBe(true)
    expect(answer.get(r)).toBe(false)
    // Asked again: the writer remembered is still there (no walk needed).
    expect((await probe.writing([w])).get(w)).toBe(true)
    writer.kill('SIGKILL')
    await new Promise((res) => writer.once('exit', res))
    answer = await probe.writing([w])
    expect(answer.get(w)).toBe(false)
  })

  it('a name that is not UTF-8 is matched by its bytes', async () => {
    const dir = await realpath(await tempDir())
    const raw = Buffer.concat([Buffer.from(`${dir}/Quittung-M`), Buffer.from([0xfc]), Buffer.from('ller.pdf')])
    await writeFile(raw, 'x')
    const { decodeFsName } = await import('../../src-main/core/names')
    const name = decodeFsName(raw)
    await holder(raw, 'r+')
    const probe = new ProcWriterProbe(encodeFsName)
    expect((await probe.writing([name])).get(name)).toBe(true)
  })

  it('one walk of a folder answers for its files seen before it began; a file seen since, or elsewhere, gets a walk of its own', async () => {
    const dir = await realpath(await tempDir())
    const files: string[] = []
    for (let i = 0; i < 30; i++) {
      const f = path.join(dir, `receipt-${i}.pdf`)
      await writeFile(f, 'x')
      files.push(f)
    }
    // When the watcher's stat first returned these versions (by this process's clock).
    const seen = performance.now()
    const probe = new ProcWriterProbe(encodeFsName)
    const ask = async (f: string, since: number, scope = dir) => (await probe.writing([f], { scope, since })).get(f)
    for (const f of files) expect(await ask(f, seen)).toBe(false)
    expect(probe.walks).toBe(1)

    // A scanner starts a new file in the folder and holds it open after its first page: that
    // version is seen after the walk began, so a new walk is made, and it sees the scanner.
    const scan = path.join(dir, 'scan.pdf')
    await writeFile(scan, '%PDF-1.4 page 1 %%EOF')
    await holder(scan, 'a')
    expect(await ask(scan, performance.now())).toBe(true)
    expect(probe.walks).toBe(2)

    // A file of another folder is not answered by a walk of this one.
    const other = path.join(await realpath(await tempDir()), 'elsewhere')
    await mkdir(other)
    const held = path.join(other, 'held.pdf')
    await writeFile(held, 'x')
    await holder(held, 'r+')
    expect(await ask(held, performance.now(), other)).toBe(true)
    expect(probe.walks).toBe(3)
  })
})
