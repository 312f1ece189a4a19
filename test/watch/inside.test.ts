/**
 * "Never read outside the folder" off Linux (issue 31, item 12): where no `/proc/self/fd` names the
 * open descriptor, openInside accepts a file only when the real path of its path is the very file
 * it opened (same device and inode) and lies inside the folder. That fallback runs here, on Linux,
 * with `procFd: null`, on real files and links.
 */
import { mkdir, mkdtemp, readFile, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type InsideFs, type OpenedInside, openInside } from '../../src-main/core/watch/inside'

const dirs: string[] = []
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true })
})

/** A watched folder and a folder outside it (real paths), with a file in each. */
async function folders() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'bookdrop-inside-')))
  dirs.push(base)
  const root = join(base, 'inbox')
  const outside = join(base, 'outside')
  await mkdir(root)
  await mkdir(outside)
  await writeFile(join(root, 'receipt.pdf'), 'the receipt')
  await writeFile(join(root, 'other.pdf'), 'another receipt')
  await writeFile(join(outside, 'id_rsa'), 'a private key')
  return { root, outside }
}

/** Reads what openInside opened (and closes it), or says why it refused. */
async function readOpened(r: OpenedInside): Promise<string> {
  if (!r.ok) return `refused: ${r.why}`
  try {
    return (await r.handle.readFile()).toString()
  } finally {
    await r.handle.close()
  }
}

const FALLBACK: InsideFs = { procFd: null }

describe('openInside without /proc (the check used off Linux)', () => {
  it('accepts a file of the folder and a link that stays inside it', async () => {
    const { root } = await folders()
    await symlink(join(root, 'receipt.pdf'), join(root, 'alias.pdf'))
    const plain = await openInside(join(root, 'receipt.pdf'), root, FALLBACK)
    expect(plain).toMatchObject({ ok: true, realPath: join(root, 'receipt.pdf') })
    expect(await readOpened(plain)).toBe('the receipt')
    const alias = await openInside(join(root, 'alias.pdf'), root, FALLBACK)
    expect(alias).toMatchObject({ ok: true, realPath: join(root, 'receipt.pdf') })
    expect(await readOpened(alias)).toBe('the receipt')
  })

  it('refuses a link to a file outside the folder, naming where it leads', async () => {
    const { root, outside } = await folders()
    await symlink(join(outside, 'id_rsa'), join(root, 'key.pdf'))
    const r = await openInside(join(root, 'key.pdf'), root, FALLBACK)
    expect(r).toMatchObject({ ok: false, why: 'outside', realPath: join(outside, 'id_rsa') })
    // A file given without a folder (a drop) keeps its own rule: opened as it is.
    expect(await readOpened(await openInside(join(root, 'key.pdf'), null, FALLBACK))).toBe('a private key')
  })

  it('refuses a file whose path was swapped between the open and the check (device and inode differ)', async () => {
    const { root, outside } = await folders()
    const target = join(root, 'receipt.pdf')
    // The open succeeds on the receipt; right after it, the name is taken by another file, then by a
    // link out of the folder. Only the device and inode comparison can see either.
    const swapTo = async (swap: () => Promise<void>) => {
      const fs: InsideFs = {
        procFd: null,
        open: async (p, flags) => {
          const h = await open(p, flags)
          await swap()
          return h
        },
      }
      return openInside(target, root, fs)
    }
    const renamed = await swapTo(() => rename(join(root, 'other.pdf'), target))
    expect(renamed).toMatchObject({ ok: false, why: 'changed' })
    await rm(target)
    await writeFile(target, 'the receipt')
    const linked = await swapTo(async () => {
      await rm(target)
      await symlink(join(outside, 'id_rsa'), target)
    })
    expect(linked.ok).toBe(false)
    expect(await readOpened(linked)).not.toBe('a private key')
    // The file outside is untouched.
    expect(await readFile(join(outside, 'id_rsa'), 'utf8')).toBe('a private key')
  })

  it.runIf(process.platform === 'linux')('on Linux by default, the kernel names what was opened: the same swap reads the file opened', async () => {
    const { root } = await folders()
    const target = join(root, 'receipt.pdf')
    const r = await openInside(target, root, {
      open: async (p, flags) => {
        const h = await open(p, flags)
        // The receipt moves (still inside the folder) and another file takes its name.
        await rename(target, join(root, 'moved.pdf'))
        await rename(join(root, 'other.pdf'), target)
        return h
      },
    })
    expect(r.ok).toBe(true)
    expect(await readOpened(r)).toBe('the receipt')
  })
})
