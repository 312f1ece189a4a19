/**
 * after-upload.ts: a move never replaces a file, also when many files of one name are moved into
 * one folder at the same moment, and across disks (an exclusive copy, then the original removed).
 */
import { createHash } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { link, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { moveInto } from '../../src-main/core/intake/after-upload'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})
async function temp(base = tmpdir()): Promise<string> {
  const d = await mkdtemp(join(base, 'bookdrop-move-'))
  dirs.push(d)
  return d
}
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex')

describe('moveInto', () => {
  it('42 files named scan.pdf moved into one folder at once: all 42 there, each under its own name', async () => {
    const root = await temp()
    const dest = join(root, 'Uploaded')
    const sources: { path: string; sha: string }[] = []
    for (let i = 0; i < 42; i++) {
      const d = join(root, `batch-${i}`)
      await mkdir(d)
      const body = Buffer.from(`scan ${i}`)
      await writeFile(join(d, 'scan.pdf'), body)
      sources.push({ path: join(d, 'scan.pdf'), sha: sha(body) })
    }
    const moved = await Promise.all(sources.map((s) => moveInto(s.path, dest)))
    expect(new Set(moved).size).toBe(42)
    expect((await readdir(dest)).sort()).toEqual(
      ['scan.pdf', ...Array.from({ length: 41 }, (_, i) => `scan (${i + 2}).pdf`)].sort(),
    )
    for (const [i, m] of moved.entries()) expect(sha(await readFile(m))).toBe(sources[i]!.sha)
    for (const s of sources) expect(existsSync(s.path)).toBe(false)
  })

  it('never replaces a file already there, nor reuses its name', async () => {
    const root = await temp()
    const dest = join(root, 'Uploaded')
    await mkdir(dest)
    await writeFile(join(dest, 'scan.pdf'), 'older')
    await writeFile(join(root, 'scan.pdf'), 'newer')
    expect(await moveInto(join(root, 'scan.pdf'), dest)).toBe(join(dest, 'scan (2).pdf'))
    expect(await readFile(join(dest, 'scan.pdf'), 'utf8')).toBe('older')
    expect(await readFile(join(dest, 'scan (2).pdf'), 'utf8')).toBe('newer')
  })

  it('finishes a move the app was stopped in the middle of (linked, not yet unlinked) without a second copy', async () => {
    const root = await temp()
    const dest = join(root, 'Uploaded')
    await mkdir(dest)
    await writeFile(join(root, 'scan.pdf'), 'once')
    await link(join(root, 'scan.pdf'), join(dest, 'scan.pdf'))
    expect(await moveInto(join(root, 'scan.pdf'), dest)).toBe(join(dest, 'scan.pdf'))
    expect(await readdir(dest)).toEqual(['scan.pdf'])
    expect(existsSync(join(root, 'scan.pdf'))).toBe(false)
  })

  it.runIf(existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev)(
    'across disks: an exclusive copy keeping the time, then the original removed; a name taken is skipped',
    async () => {
      const src = await temp()
      const dest = await temp('/dev/shm')
      await writeFile(join(dest, 'scan.pdf'), 'older')
      await writeFile(join(src, 'scan.pdf'), 'newer')
      const before = statSync(join(src, 'scan.pdf')).mtimeMs
      const moved = await moveInto(join(src, 'scan.pdf'), dest)
      expect(moved).toBe(join(dest, 'scan (2).pdf'))
      expect(await readFile(join(dest, 'scan.pdf'), 'utf8')).toBe('older')
      expect(await readFile(moved, 'utf8')).toBe('newer')
      // The time is kept (to the millisecond: the system stores what utimes can express).
      expect(Math.abs(statSync(moved).mtimeMs - before)).toBeLessThan(1)
      expect(existsSync(join(src, 'scan.pdf'))).toBe(false)
    },
  )
})
