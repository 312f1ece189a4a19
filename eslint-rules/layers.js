// @ts-check
/**
 * Layers by folder (issue 13): each layer may import only the layers below it, its own folder and
 * npm packages. Relative imports are resolved against the importing file, so `../../contract`
 * from src-main/core/x.ts is "contract", whatever the spelling.
 *
 *   schemas  ←  contract  ←  src-main/core  ←  src-main/shell  ←  hosts (src-main/electron,
 *                                                                 web-host.ts, headless.ts)
 *   sandbox (the emulator) sees only schemas; the hosts start it (the demo) and pass it to core.
 *   workers (the limited worker pool for documents) sees nothing; the emulator and main use it.
 *   src-preload and src-renderer see only the contract (which re-exports what they need of schemas).
 *
 * Tests, scripts, build files and configs are outside the layers.
 */
import { dirname, relative, resolve, sep } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

/** Most specific first: a file belongs to the first layer whose folder holds it. */
export const LAYERS = [
  { name: 'schemas', dir: 'schemas/', may: [] },
  // The worker pool for untrusted documents (design.md §1): the emulator and core both run tasks there.
  { name: 'workers', dir: 'workers/', may: [] },
  { name: 'contract', dir: 'contract/', may: ['schemas'] },
  { name: 'sandbox', dir: 'sandbox/', may: ['schemas', 'workers'] },
  { name: 'core', dir: 'src-main/core/', may: ['schemas', 'contract', 'workers'] },
  { name: 'shell', dir: 'src-main/shell/', may: ['schemas', 'contract', 'core', 'workers'] },
  { name: 'hosts', dir: 'src-main/', may: ['schemas', 'contract', 'core', 'shell', 'sandbox', 'workers'] },
  { name: 'preload', dir: 'src-preload/', may: ['contract'] },
  { name: 'renderer', dir: 'src-renderer/', may: ['contract'] },
]

/** The layer of a path relative to the repository root (forward slashes), or null. */
export function layerOf(rel) {
  return LAYERS.find((l) => rel.startsWith(l.dir)) ?? null
}

const toRel = (abs) => relative(ROOT, abs).split(sep).join('/')

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'Each layer imports only the layers below it (docs/layout.md).' },
    messages: {
      upward:
        '{{from}} may not import {{to}} ("{{source}}"): {{from}} sees only {{may}}. Move the shared piece down, or pass it in from a host.',
    },
    schema: [],
  },
  create(context) {
    const file = toRel(context.filename)
    const from = layerOf(file)
    if (!from) return {}
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return
      const target = toRel(resolve(dirname(context.filename), source))
      const to = layerOf(target.endsWith('/') ? target : `${target}/`) ?? layerOf(target)
      if (!to || to.name === from.name || from.may.includes(to.name)) return
      context.report({
        node,
        messageId: 'upward',
        data: { from: from.name, to: to.name, source, may: from.may.join(', ') || 'nothing but itself' },
      })
    }
    return {
      ImportDeclaration: (n) => check(n.source, n.source.value),
      ExportAllDeclaration: (n) => check(n.source, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
    }
  },
}

export default { rules: { layers: layersRule } }
