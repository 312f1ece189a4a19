// The afterPack hook on a stand-in Electron binary: a blob with the fuse sentinel and a wire as
// Electron ships it (this machine cannot download the real binary).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

interface Context {
  appOutDir: string
  electronPlatformName: string
  arch: number
  packager: { executableName: string; appInfo: { productFilename: string } }
}
interface AfterPackModule {
  (context: Context): Promise<void>
  electronBinaryPath(context: Context): string
  fuseConfig(context: Context): Record<string, unknown>
}
const require = createRequire(import.meta.url)
const afterPack = require('../../build/after-pack.cjs') as AfterPackModule

const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'
// Electron's defaults: run_as_node 1, cookie_encryption 0, node_options 1, node_cli_inspect 1,
// embedded_asar_integrity_validation 0, only_load_app_from_asar 0, v8 snapshot 0, file protocol 1.
const DEFAULT_WIRE = '10110001'

function fakeBinary(wire: string): Buffer {
  return Buffer.concat([
    Buffer.alloc(64, 0xab),
    Buffer.from(SENTINEL, 'ascii'),
    Buffer.from([1, wire.length]),
    Buffer.from(wire, 'ascii'),
    Buffer.alloc(64, 0xcd),
  ])
}
const wireOf = (bin: Buffer, length: number): string => {
  const at = bin.indexOf(SENTINEL) + SENTINEL.length + 2
  return bin.toString('ascii', at, at + length)
}

describe('build/after-pack.cjs', () => {
  let dir: string
  const ctx = (platform: string, arch = 1): Context => ({
    appOutDir: dir,
    electronPlatformName: platform,
    arch,
    packager: { executableName: 'bookdrop', appInfo: { productFilename: 'Bookdrop' } },
  })

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bookdrop-fuses-'))
    vi.spyOn(console, 'log').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })
  afterEach(async () => {
    vi.restoreAllMocks()
    await rm(dir, { recursive: true, force: true })
  })

  it('finds the packaged binary on every platform', () => {
    expect(afterPack.electronBinaryPath(ctx('linux'))).toBe(join(dir, 'bookdrop'))
    expect(afterPack.electronBinaryPath(ctx('win32'))).toBe(join(dir, 'Bookdrop.exe'))
    expect(afterPack.electronBinaryPath(ctx('darwin'))).toBe(join(dir, 'Bookdrop.app'))
    expect(() => afterPack.electronBinaryPath(ctx('beos'))).toThrow(/unknown platform/)
  })

  it('re-signs ad hoc only for Apple silicon and universal macOS builds', () => {
    expect(afterPack.fuseConfig(ctx('darwin', 3)).resetAdHocDarwinSignature).toBe(true)
    expect(afterPack.fuseConfig(ctx('darwin', 4)).resetAdHocDarwinSignature).toBe(true)
    expect(afterPack.fuseConfig(ctx('darwin', 1)).resetAdHocDarwinSignature).toBe(false)
    expect(afterPack.fuseConfig(ctx('linux', 3)).resetAdHocDarwinSignature).toBe(false)
  })

  it('turns RunAsNode, NODE_OPTIONS, --inspect and the extra privileges of file:// off; asar integrity, asar-only and cookie encryption on', async () => {
    const bin = join(dir, 'bookdrop')
    await writeFile(bin, fakeBinary(DEFAULT_WIRE))
    await afterPack(ctx('linux'))
    // RunAsNode 0, CookieEncryption 1, NodeOptions 0, Inspect 0, AsarIntegrity 1, OnlyAsar 1, V8 snapshot 0, file protocol 0
    expect(wireOf(await readFile(bin), 8)).toBe('01001100')
  })

  it('flips the wire of every slice of a universal binary', async () => {
    const bin = join(dir, 'Bookdrop.app', 'Contents', 'Frameworks', 'Electron Framework.framework')
    await mkdir(bin, { recursive: true })
    const file = join(bin, 'Electron Framework')
    await writeFile(file, Buffer.concat([fakeBinary(DEFAULT_WIRE), fakeBinary(DEFAULT_WIRE)]))
    // arch x64: no ad-hoc re-signing (that needs macOS's codesign)
    await afterPack(ctx('darwin', 1))
    const out = await readFile(file)
    const second = out.lastIndexOf(SENTINEL) + SENTINEL.length + 2
    expect(wireOf(out, 8)).toBe('01001100')
    expect(out.toString('ascii', second, second + 8)).toBe('01001100')
  })

  it('leaves fuses it does not know as Electron ships them, and says so', async () => {
    const bin = join(dir, 'bookdrop')
    await writeFile(bin, fakeBinary(`${DEFAULT_WIRE}1`))
    await afterPack(ctx('linux'))
    expect(wireOf(await readFile(bin), 9)).toBe('010011001')
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('wire positions 8'))
  })

  it('fails the build when there is no fuse wire', async () => {
    await writeFile(join(dir, 'bookdrop'), Buffer.alloc(256, 1))
    await expect(afterPack(ctx('linux'))).rejects.toThrow(/sentinel/)
  })
})
