/**
 * The layer rule (eslint-rules/layers.js) through the project's own eslint config: what each layer
 * may import, and that an upward import is an error naming both layers. Lints source text as if it
 * were a file at the given path (nothing is written).
 */
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function layerErrors(path: string, code: string): Promise<string[]> {
  const [r] = await eslint.lintText(code, { filePath: path })
  return (r?.messages ?? []).filter((m) => m.ruleId === 'bookdrop/layers').map((m) => m.message)
}

describe('layers by folder', () => {
  it.each([
    ['src-main/core/engine.ts', "import { x } from '../electron/main'\nexport const y = x", 'core may not import hosts'],
    ['src-main/core/engine.ts', "import { x } from '../shell/csp'\nexport const y = x", 'core may not import shell'],
    ['src-main/core/demo.ts', "export const m = () => import('../../sandbox')", 'core may not import sandbox'],
    ['src-main/shell/csp.ts', "import { x } from '../electron/window'\nexport const y = x", 'shell may not import hosts'],
    ['contract/index.ts', "import type { Upload } from '../src-main/core/store/uploads'\nexport type U = Upload", 'contract may not import core'],
    ['schemas/api.ts', "import type { X } from '../contract'\nexport type Y = X", 'schemas may not import contract'],
    ['sandbox/server.ts', "import { x } from '../src-main/core/util'\nexport const y = x", 'sandbox may not import core'],
    ['src-renderer/screens/X.tsx', "import { x } from '../../src-main/core/util'\nexport const y = x", 'renderer may not import core'],
    ['src-renderer/screens/X.tsx', "import { x } from '../../schemas/api'\nexport const y = x", 'renderer may not import schemas'],
    ['src-preload/index.ts', "export * from '../src-main/core/util'", 'preload may not import core'],
  ])('%s: an upward import is refused (%#)', async (path, code, message) => {
    const errors = await layerErrors(path, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(message)
  })

  it.each([
    ['src-main/core/engine.ts', "import { x } from '../../contract/types'\nimport { y } from '../../schemas'\nexport const z = [x, y]"],
    ['src-main/core/engine.ts', "import { x } from './util'\nimport { z } from 'zod'\nexport const y = [x, z]"],
    ['src-main/shell/controller.ts', "import { x } from '../core/events'\nexport const y = x"],
    ['src-main/electron/main.ts', "import { x } from '../shell/csp'\nimport { s } from '../../sandbox'\nexport const y = [x, s]"],
    ['src-main/web-host.ts', "import { x } from './core/app-service'\nexport const y = x"],
    ['src-renderer/screens/X.tsx', "import { x } from '../../contract/schemas'\nimport { y } from '../lib/format'\nexport const z = [x, y]"],
    ['test/anything.test.ts', "import { x } from '../src-main/electron/main'\nexport const y = x"],
  ])('%s: allowed imports pass (%#)', async (path, code) => {
    expect(await layerErrors(path, code)).toEqual([])
  })
})
