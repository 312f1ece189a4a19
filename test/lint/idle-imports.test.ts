/**
 * The headless engine that only watches must not load the API's zod schemas or zod's full API:
 * those cost the idle process about 10 MB of RSS (issue 14; `npm run bench` prints the figure).
 * They load with the first request instead. This follows the static imports from the engine and
 * the headless entry point, as esbuild bundles them, and names the chain that pulls one in.
 */
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
/**
 * Loaded only with the first request (the client) or never by the engine; the proxy agent and the
 * environment's proxy rules only with the first request that goes through a proxy (issue 22).
 */
const HEAVY = /^(zod|zod\/v4|zod\/v4\/classic(\/.*)?|schemas\/(index|api|read)\.ts|hpagent|proxy-from-env)$/

/** Import chains, from `entry` along static imports only, that end in a heavy module. */
async function heavyChains(entry: string): Promise<string[]> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    metafile: true,
    outdir: join(ROOT, 'out', 'idle-imports-check'),
    logLevel: 'silent',
  })
  const inputs = result.metafile.inputs
  const parent = new Map<string, string | undefined>([[entry, undefined]])
  const queue = [entry]
  const chains: string[] = []
  while (queue.length > 0) {
    const file = queue.shift() as string
    for (const im of inputs[file]?.imports ?? []) {
      if (im.kind !== 'import-statement' || parent.has(im.path)) continue
      parent.set(im.path, file)
      if (HEAVY.test(im.path)) {
        const chain: string[] = [im.path]
        for (let f: string | undefined = file; f; f = parent.get(f)) chain.unshift(f)
        chains.push(chain.join(' → '))
      } else queue.push(im.path)
    }
  }
  return chains
}

describe('what the idle headless engine loads', () => {
  it.each([
    'src-main/headless.ts',
    'src-main/core/engine.ts',
    'src-main/core/api/credentials.ts',
    'src-main/core/api/network.ts',
    'src-main/core/api/http.ts',
  ])(
    '%s does not statically import the API schemas or full zod',
    async (entry) => {
      expect(await heavyChains(entry)).toEqual([])
    },
  )

  it('the check itself sees a chain when there is one (the client imports the schemas)', async () => {
    const chains = await heavyChains('src-main/core/api/client.ts')
    expect(chains.some((c) => c.endsWith('schemas/api.ts'))).toBe(true)
  })
})

describe('what the headless bundle carries (scripts/build-node.mjs)', () => {
  /** The files whose code is in out/node's bundles (built in memory with the real options). */
  async function bundledInputs(): Promise<string[]> {
    // @ts-expect-error -- a plain ES module script without types (scripts/build-node.mjs)
    const { nodeBuildOptions } = (await import('../../scripts/build-node.mjs')) as {
      nodeBuildOptions(): Parameters<typeof build>[0]
    }
    const result = await build({ ...nodeBuildOptions(), write: false, metafile: true, logLevel: 'silent' })
    // `inputs` lists every file esbuild read, tree-shaken ones too; the outputs say what they hold.
    const kept = new Set<string>()
    for (const out of Object.values(result.metafile.outputs))
      for (const [file, { bytesInOutput }] of Object.entries(out.inputs)) if (bytesInOutput > 0) kept.add(file)
    return [...kept]
  }

  it('leaves out what no one runs: ecma402-abstract and decimal.js (80 modules at every start), zod locales but English', async () => {
    const inputs = await bundledInputs()
    // The check sees what it looks for: intl-messageformat and zod are bundled.
    expect(inputs.some((f) => f.includes('node_modules/intl-messageformat/'))).toBe(true)
    expect(inputs.some((f) => f.includes('node_modules/zod/v4/locales/en.js'))).toBe(true)
    expect(inputs.filter((f) => /node_modules\/(@formatjs\/ecma402-abstract|decimal\.js)\//.test(f))).toEqual([])
    expect(inputs.filter((f) => /node_modules\/zod\/v4\/locales\/(?!en\.js)/.test(f))).toEqual([])
  }, 60_000)
})
