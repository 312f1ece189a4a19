/**
 * The catalogues (issue 34): the English one is what the code says today, every language has every
 * message, each translation keeps its message's arguments and its language's plural forms, the
 * generated per-language modules are current, and main and the headless mode word a code in Node.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { TYPE, type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser'
import { beforeAll, describe, expect, it } from 'vitest'
import { messagesFor, wordCoded } from '../../contract/i18n/all'
import { LANGUAGES, languageInUse, pickLanguage } from '../../contract/i18n/languages'
import { loadMessages } from '../../contract/i18n/load'
// @ts-expect-error: a plain ES module of the repo's scripts (no types)
import { I18N_DIR, areaFiles, enCatalogueText, extractMessages, indexModuleText } from '../../scripts/i18n.mjs'

type Extracted = Record<string, { defaultMessage: string; file: string }>
const TRANSLATED = LANGUAGES.map((l) => l.code).filter((c) => c !== 'en')

/** A language's area files merged, with the file each id comes from. */
function catalogue(locale: string): Map<string, { text: string; file: string }> {
  const out = new Map<string, { text: string; file: string }>()
  for (const f of areaFiles(locale) as string[]) {
    const path = join(I18N_DIR, locale, f)
    for (const [id, text] of Object.entries(JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>))
      out.set(id, { text, file: `contract/i18n/${locale}/${f}` })
  }
  return out
}

/** The arguments of a message (names, with their kind), and its plural categories used. */
function shape(message: string): { args: string[]; plurals: string[] } {
  const args = new Set<string>()
  const plurals = new Set<string>()
  const walk = (els: MessageFormatElement[]) => {
    for (const el of els) {
      if (el.type === TYPE.argument || el.type === TYPE.number || el.type === TYPE.date || el.type === TYPE.time)
        args.add(el.value)
      else if (el.type === TYPE.plural) {
        args.add(el.value)
        for (const [k, o] of Object.entries(el.options)) {
          if (!k.startsWith('=')) plurals.add(k)
          walk(o.value)
        }
      } else if (el.type === TYPE.select) {
        args.add(el.value)
        for (const o of Object.values(el.options)) walk(o.value)
      } else if (el.type === TYPE.tag) {
        args.add(`<${el.value}>`)
        walk(el.children)
      }
    }
  }
  walk(parse(message))
  return { args: [...args].sort(), plurals: [...plurals] }
}

describe('the catalogues', () => {
  let extracted: Extracted
  beforeAll(() => {
    extracted = extractMessages() as Extracted
  }, 60_000)

  it('contract/i18n/en/messages.json is what the code says today (npm run i18n:extract)', () => {
    const saved = readFileSync(join(I18N_DIR, 'en', 'messages.json'), 'utf8')
    expect(saved, 'the English catalogue is stale: run `npm run i18n:extract`').toBe(enCatalogueText(extracted))
  })

  it('the generated module of each language imports all its area files (npm run i18n:extract)', () => {
    for (const locale of ['en', ...TRANSLATED]) {
      const saved = readFileSync(join(I18N_DIR, 'generated', `${locale}.ts`), 'utf8')
      expect(saved, `contract/i18n/generated/${locale}.ts is stale: run \`npm run i18n:extract\``).toBe(
        indexModuleText(locale),
      )
    }
  })

  it('COMPLETENESS: every message of the code has a translation in every language', () => {
    const missing: string[] = []
    for (const locale of TRANSLATED) {
      const have = catalogue(locale)
      const lacking = Object.keys(extracted).filter((id) => !have.has(id))
      if (lacking.length)
        missing.push(
          `${locale} lacks ${lacking.length}:\n${lacking.map((id) => `    ${id}  (${extracted[id]!.file})`).join('\n')}`,
        )
    }
    expect(missing.join('\n'), 'messages with no translation (id, and the file that says it)').toBe('')
  })

  it('no translation of a message the code no longer has, and no id in two area files', () => {
    const problems: string[] = []
    for (const locale of TRANSLATED) {
      const seen = new Map<string, string>()
      for (const f of areaFiles(locale) as string[]) {
        const ids = Object.keys(JSON.parse(readFileSync(join(I18N_DIR, locale, f), 'utf8')) as object)
        for (const id of ids) {
          if (!(id in extracted)) problems.push(`${locale}/${f}: ${id} is in no code`)
          const before = seen.get(id)
          if (before) problems.push(`${locale}: ${id} is in both ${before} and ${f}`)
          seen.set(id, f)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it("each translation keeps its message's arguments and uses its language's plural forms", () => {
    const problems: string[] = []
    for (const locale of TRANSLATED) {
      const categories = new Set<string>(new Intl.PluralRules(locale).resolvedOptions().pluralCategories)
      for (const [id, { text, file }] of catalogue(locale)) {
        const en = extracted[id]
        if (!en) continue
        let mine: ReturnType<typeof shape>
        try {
          mine = shape(text)
        } catch (e) {
          problems.push(`${file} ${id}: not ICU MessageFormat (${(e as Error).message})`)
          continue
        }
        const theirs = shape(en.defaultMessage)
        if (mine.args.join() !== theirs.args.join())
          problems.push(`${file} ${id}: arguments ${mine.args.join(', ')} where English has ${theirs.args.join(', ')}`)
        for (const p of mine.plurals)
          if (!categories.has(p)) problems.push(`${file} ${id}: plural form "${p}" does not exist in ${locale}`)
        if (mine.plurals.length && !mine.plurals.includes('other'))
          problems.push(`${file} ${id}: a plural without "other"`)
      }
    }
    expect(problems).toEqual([])
  })

  it('main and the headless mode word a coded sentence from the same catalogue, in Node', async () => {
    expect(messagesFor('de')['nav.settings']).toBe('Einstellungen')
    expect(messagesFor('xx')['nav.settings']).toBe('Settings')
    expect((await loadMessages('fr'))['nav.settings']).toBe('Paramètres')
    const waiting = (count: number, locale: string) =>
      wordCoded({ code: 'app.status.waiting', params: { count }, text: `${count} files waiting` }, locale)
    expect(waiting(1, 'de')).toBe('1 Datei wartet')
    expect(waiting(2, 'de')).toBe('2 Dateien warten')
    expect(waiting(2, 'ar')).toBe('ملفان ينتظران')
    expect(waiting(2, 'en')).toBe('2 files waiting')
    // A code no catalogue knows keeps the English text it carries.
    expect(wordCoded({ code: 'nobody.knows', text: 'As sent' }, 'fr')).toBe('As sent')
  })
})

describe('the language of a person', () => {
  it.each([
    [['ja-JP', 'fr-FR', 'en-US'], 'fr'],
    [['pt'], 'pt-BR'],
    [['pt-PT', 'en'], 'pt-BR'],
    [['de-AT'], 'de'],
    [['ar-EG'], 'ar'],
    [['id-ID'], 'id'],
    [['in'], 'id'],
    [['not a tag', 'de'], 'de'],
    [['es-419'], 'es'],
    [['zh-CN', 'ko'], 'en'],
    [[], 'en'],
  ])('%j → %s', (preferred, lang) => {
    expect(pickLanguage(preferred)).toBe(lang)
  })

  it('the Language setting wins over the system; "system" follows it', () => {
    expect(languageInUse('de', ['fr-FR'])).toBe('de')
    expect(languageInUse('system', ['fr-FR'])).toBe('fr')
  })

  it('lists each language by its own name, Arabic right to left', () => {
    expect(LANGUAGES.map((l) => l.name)).toEqual([
      'English',
      'Deutsch',
      'Français',
      'Español',
      'Português (Brasil)',
      'العربية',
      'Bahasa Indonesia',
    ])
    expect(LANGUAGES.filter((l) => l.dir === 'rtl').map((l) => l.code)).toEqual(['ar'])
  })
})
