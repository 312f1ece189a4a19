#!/usr/bin/env node
// The catalogues' tooling (issue 34), `npm run i18n:extract`:
//  1. collects every message (id + English defaultMessage) of src-renderer, contract and src-main
//     into contract/i18n/en/messages.json (flat, keys sorted): the English catalogue the tests
//     compare every language against, and main's English wording of a code. A module's messages
//     live beside it in <module>.messages.json (see MESSAGE_FILE below); a one-off message written
//     in the code itself (`formatMessage({ id, defaultMessage })`) is extracted by @formatjs/cli;
//  2. regenerates contract/i18n/generated/<locale>.ts, one module per language that merges its area
//     files contract/i18n/<locale>/*.json (the renderer loads each as its own chunk, on demand).
// `node scripts/i18n.mjs index` does step 2 only. test/i18n/catalogue.test.ts fails when either
// output is not current.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

export const ROOT = join(import.meta.dirname, '..')
export const I18N_DIR = join(ROOT, 'contract', 'i18n')
export const EN_CATALOGUE = join(I18N_DIR, 'en', 'messages.json')
export const LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ar', 'id']
const SOURCES = ['src-renderer', 'contract', 'src-main']

/**
 * A module's English messages: `<module>.messages.json` beside `<module>.ts(x)`, one object per
 * table named as the module's const, `{ "<const>": { "<key>": { "id", "defaultMessage",
 * "description"? } } }`, which the module passes to defineMessages: `const m = defineMessages(messages.m)`.
 */
export const MESSAGE_FILE = /\.messages\.json$/

/** The files below `dir` whose name `test` accepts. */
function filesBelow(dir, test) {
  const out = []
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) out.push(...filesBelow(p, test))
    else if (test(e.name)) out.push(p)
  }
  return out
}
const sourceFiles = (dir) => filesBelow(dir, (n) => /\.(ts|tsx)$/.test(n) && !n.endsWith('.d.ts'))

/** The messages of one <module>.messages.json: [id, defaultMessage][]. Throws on another shape. */
function readMessageFile(path) {
  const rel = relative(ROOT, path)
  const base = path.replace(MESSAGE_FILE, '')
  if (!existsSync(`${base}.ts`) && !existsSync(`${base}.tsx`)) throw new Error(`${rel}: no module beside it`)
  const isObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v)
  const tables = JSON.parse(readFileSync(path, 'utf8'))
  if (!isObject(tables)) throw new Error(`${rel}: not an object of tables`)
  const out = []
  for (const [name, table] of Object.entries(tables)) {
    if (!isObject(table)) throw new Error(`${rel}: ${name} is not a table of messages`)
    for (const [key, d] of Object.entries(table)) {
      const fields = isObject(d) ? Object.keys(d) : []
      const ok =
        typeof d?.id === 'string' &&
        typeof d.defaultMessage === 'string' &&
        (d.description === undefined || typeof d.description === 'string') &&
        fields.every((f) => ['id', 'defaultMessage', 'description'].includes(f))
      if (!ok) throw new Error(`${rel}: ${name}.${key} is not { id, defaultMessage, description? } (strings)`)
      out.push([d.id, d.defaultMessage])
    }
  }
  return out
}

/** The messages written in the code itself, by @formatjs/cli: [id, defaultMessage, file][]. */
function extractFromCode() {
  const files = SOURCES.flatMap((d) => sourceFiles(join(ROOT, d)))
  const tmp = mkdtempSync(join(tmpdir(), 'bookdrop-i18n-'))
  try {
    const list = join(tmp, 'files.txt')
    const out = join(tmp, 'out.json')
    writeFileSync(list, files.join('\n'))
    const bin = join(ROOT, 'node_modules', '.bin', 'formatjs')
    const r = spawnSync(bin, ['extract', '--in-file', list, '--out-file', out, '--extract-source-location', '--throws'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    if (r.status !== 0) throw new Error(`formatjs extract failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
    const raw = JSON.parse(readFileSync(out, 'utf8'))
    return Object.entries(raw).map(([id, d]) => [
      id,
      d.defaultMessage ?? '',
      d.file ? relative(ROOT, join(ROOT, d.file)) : '',
    ])
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * Every message: id → { defaultMessage, file } (file relative to the root: the messages.json, or
 * the module that writes the message inline). Throws on a file that cannot be read, or on one id
 * given two different English wordings.
 */
export function extractMessages() {
  const found = []
  for (const path of SOURCES.flatMap((d) => filesBelow(join(ROOT, d), (n) => MESSAGE_FILE.test(n))).sort())
    for (const [id, text] of readMessageFile(path)) found.push([id, text, relative(ROOT, path)])
  found.push(...extractFromCode())
  const byId = new Map()
  for (const [id, defaultMessage, file] of found) {
    const before = byId.get(id)
    if (before && before.defaultMessage !== defaultMessage)
      throw new Error(`${id} has two English wordings: in ${before.file} and in ${file}`)
    if (!before) byId.set(id, { defaultMessage, file })
  }
  return Object.fromEntries([...byId.keys()].sort().map((id) => [id, byId.get(id)]))
}

/** The English catalogue's text: { id: English ICU string }, keys sorted, one per line. */
export function enCatalogueText(messages) {
  const flat = Object.fromEntries(Object.keys(messages).sort().map((id) => [id, messages[id].defaultMessage]))
  return `${JSON.stringify(flat, null, 2)}\n`
}

/** The area files of a locale, sorted (contract/i18n/<locale>/*.json). */
export function areaFiles(locale) {
  try {
    return readdirSync(join(I18N_DIR, locale)).filter((f) => f.endsWith('.json')).sort()
  } catch {
    return []
  }
}

/** The generated module of one locale: imports its area files and merges them. */
export function indexModuleText(locale) {
  const files = areaFiles(locale)
  const names = files.map((_, i) => `area${i}`)
  const lines = [
    `// Generated by scripts/i18n.mjs from contract/i18n/${locale}/*.json: do not edit; run \`npm run i18n:extract\`.`,
    ...files.map((f, i) => `import ${names[i]} from '../${locale}/${f}' with { type: 'json' }`),
    '',
    `const messages: Readonly<Record<string, string>> = ${names.length ? `{ ${names.map((n) => `...${n}`).join(', ')} }` : '{}'}`,
    'export default messages',
    '',
  ]
  return lines.join('\n')
}

export function writeIndex() {
  const dir = join(I18N_DIR, 'generated')
  mkdirSync(dir, { recursive: true })
  for (const locale of LOCALES) writeFileSync(join(dir, `${locale}.ts`), indexModuleText(locale))
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  if (process.argv[2] !== 'index') {
    const messages = extractMessages()
    mkdirSync(join(I18N_DIR, 'en'), { recursive: true })
    writeFileSync(EN_CATALOGUE, enCatalogueText(messages))
    console.error(`extracted ${Object.keys(messages).length} messages into ${relative(ROOT, EN_CATALOGUE)}`)
  }
  writeIndex()
  console.error(`wrote contract/i18n/generated/{${LOCALES.join(',')}}.ts`)
}
