/**
 * Every screen on a 13-inch laptop (1280×800) and a small one (1024×700), in light and dark: no
 * sideways scrolling, every row's actions inside the window, axe clean, and a screenshot of each
 * under test-results/ (screens-<size>-<theme>-<screen>.png). The data is long on purpose: business
 * names, narrations and file names that would push a table wide.
 */
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import type { Fixtures, Sandbox } from '../../sandbox'
import {
  type RunningApp,
  cutProblems,
  fitProblems,
  screenshot,
  seedHistory,
  statusBarProblems,
} from './helpers'
import { type ScreenSpec, type Size, eachLook } from './looks'
import { partnerWorld } from './partner-world'
import { type E2E, E2E_TIMEOUT, describeE2E, goTo, until } from './suite'

const KEY = 'svc_sk_e2e_layout_business_0001'
const SECOND_KEY = 'svc_sk_e2e_layout_business_0002'
const PARTNER_KEY = 'svc_partner_sk_e2e_layout_partner_0001'
const LONG_BUSINESS =
  'Adebayo & Daughters Artisanal Bakery, Confectionery and Outdoor Catering Services Limited'

const fixtures: Fixtures = {
  ...partnerWorld({
    tag: 'layout',
    partner: { name: 'Ledger Partners', key: PARTNER_KEY },
    business: { name: LONG_BUSINESS, key: KEY },
    referred: [
      { uuid: 'b-layout-2', name: 'Second Street Pharmacy and Wellness Centre Ikeja', key: SECOND_KEY },
      ...Array.from({ length: 6 }, (_, i) => ({
        uuid: `b-ref-${i}`,
        name: `Referred Client Number ${i + 1} With A Rather Long Registered Company Name Ltd`,
        key: `svc_sk_e2e_layout_ref_${i}_0001`,
      })),
    ],
    invoices: {
      count: 8,
      each: (i) => ({
        source_uuid: `INV-LAYOUT-${1000 + i}`,
        date: `2026-0${(i % 9) + 1}-1${i % 10}`,
        narration: `Three-tier wedding cake with sugar flowers, delivery to the Eko Hotel ballroom and setup (order ${i})`,
        amount_paid: i % 2 ? 25_000 : 0,
      }),
    },
    transactions: {
      count: 8,
      narration: (i) =>
        `TRANSFER FROM CAFE LUMEN VICTORIA ISLAND LAGOS REF 0009918273${i} CATERING DEPOSIT FOR EVENT`,
    },
  }),
  job_delay_ms: 40,
}

const SIZES: readonly Size[] = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
]
/** 200 % zoom on a 1280×800 laptop: 640×400 CSS px (issue 26). */
const ZOOMED: readonly Size[] = [{ width: 640, height: 400 }]

/** Records the API lists: purchase orders, expenses and bills with long names. */
async function createRecords(sb: Sandbox): Promise<void> {
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${sb.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-Key': KEY },
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
  }
  for (let i = 0; i < 6; i++) {
    await post('/purchase-orders', {
      date: '2026-02-0' + (i + 1),
      narration: `Flour, sugar, margarine and packaging for the Easter weekend production run, batch ${i}`,
      customer: 'Northern Flour Mills and Agro-Allied Industries Plc (Kano distribution centre)',
      items: [{ item_name: 'Flour 50 kg', quantity: 20 + i, selling_price: 38_000 }],
    })
    await post('/expenses', {
      prompt: `Vendor: Total Energies Lekki Phase One Filling Station and Convenience Store\nTotal: NGN 4${i},500.00\nDate: 2026-02-1${i}`,
      process_type: 'direct',
    })
    await post('/bills', {
      prompt: `Vendor: Ikeja Electric Distribution Company Customer Care Centre\nAmount due: NGN 7${i},250.00\nDate: 2026-02-2${i}`,
      process_type: 'direct',
    })
  }
}

/**
 * Every screen given, at both sizes and in both themes: what does not fit (page, tables, row actions,
 * status bar), axe, and a screenshot test-results/screens-<size>-<theme>-<screen>.png.
 */
async function everyLook(
  t: E2E,
  url: string,
  screens: ScreenSpec[],
  sizes: readonly Size[] = SIZES,
): Promise<string[]> {
  const problems: string[] = []
  await eachLook(t, url, screens, sizes, async (page, s, where) => {
    const tag = `screens-${where}`
    for (const p of await fitProblems(page)) problems.push(`${tag} ${s.title}: ${p}`)
    for (const p of await statusBarProblems(page)) problems.push(`${tag} ${s.title}: status bar: ${p}`)
    for (const p of await cutProblems(page)) problems.push(`${tag} ${s.title}: ${p}`)
    await t.a11y(`${s.title} (${tag})`, page)
    await screenshot(page, `${tag}-${s.title}`)
  })
  return problems
}

const rows = (min: number) => async (p: Page) => {
  await until(() =>
    p.locator('main tbody tr:not(:has(.empty-cell)), main .vtable__scroll [role="row"]').count(),
  ).toBeGreaterThanOrEqual(min)
}

/** The overview's figures have arrived. */
const figures = async (p: Page) => {
  await until(() => p.locator('main dl.kpis').count()).toBeGreaterThanOrEqual(1)
}

/** Two business profiles, the first with a long name (it must still fit). */
const BUSINESSES = [
  { name: 'Adebayo Bakery (main account used for the wholesale side)', kind: 'business', key: KEY },
  { name: 'Second Street Pharmacy', kind: 'business', key: SECOND_KEY },
] as const

const BUSINESS_SCREENS: ScreenSpec[] = [
  { nav: /Overview/, title: 'Overview', ready: figures },
  { nav: /Capture/, title: 'Capture' },
  { nav: /Watched folders/, title: 'Watched folders' },
  { nav: /Upload history/, title: 'Upload history', ready: rows(5) },
  { nav: /Purchase orders/, title: 'Purchase orders', ready: rows(3) },
  { nav: /Invoices/, title: 'Invoices', ready: rows(3) },
  { nav: /Expenses & bills/, title: 'Expenses & bills', ready: rows(3) },
  { nav: /Bank statements/, title: 'Bank statements', ready: rows(3) },
  { nav: /Settings/, title: 'Settings', ready: rows(3) },
]

const PARTNER_SCREENS: ScreenSpec[] = [
  { nav: /Overview/, title: 'Overview', ready: figures },
  { nav: /Referred businesses/, title: 'Referred businesses', ready: rows(5) },
  { nav: /Register a business/, title: 'Register a business' },
  { nav: /Client health/, title: 'Client health', ready: rows(2) },
  { nav: /Settings/, title: 'Settings', ready: rows(3) },
]

/** The business profiles (the first with 400 uploads of history), then the partner; records made. */
async function businessApp(t: E2E) {
  const app = await t.app({
    fixtures,
    profiles: [...BUSINESSES, { name: 'Ledger Partners', kind: 'partner', key: PARTNER_KEY }],
    seed: (dataDir, profiles) => void seedHistory(dataDir, profiles[0]!.id, 400),
  })
  await createRecords(app.sb!)
  return app
}

/** The partner profile first, then the businesses. */
const PARTNER_FIRST = [
  { name: 'Ledger Partners (Lagos office)', kind: 'partner' as const, key: PARTNER_KEY },
  ...BUSINESSES,
]

/** At 200 % zoom the invoice view fits too, its totals whole. */
async function invoiceViewFits(t: E2E, url: string): Promise<void> {
  const page = await t.openPage({ viewport: ZOOMED[0]!, colorScheme: 'light' })
  await page.goto(url)
  await goTo(page, /Invoices/, 'Invoices')
  await page
    .getByRole('button', { name: /^Open invoice/ })
    .first()
    .click()
  await page.locator('#invoice-title').waitFor()
  await page.getByRole('table', { name: 'Invoice items' }).waitFor()
  expect(await fitProblems(page)).toEqual([])
  expect(await cutProblems(page)).toEqual([])
  await screenshot(page, 'screens-640x400-light-invoice-view')
}

const partnerApp = (t: E2E) => t.app({ fixtures, profiles: PARTNER_FIRST })

/** Each mode's screens at the laptop sizes and at 200 % zoom: the app, the screens, what else is checked. */
const LOOKS: {
  title: string
  app: (t: E2E) => Promise<RunningApp>
  screens: ScreenSpec[]
  sizes: readonly Size[]
  more?: (t: E2E, url: string) => Promise<void>
  timeouts: number
}[] = [
  {
    title:
      'business screens at 1280×800 and 1024×700, light and dark: no sideways scroll, every row action in view',
    app: businessApp,
    screens: BUSINESS_SCREENS,
    sizes: SIZES,
    timeouts: 4,
  },
  {
    title:
      'every business screen at 200 % zoom (640×400), light and dark: the menu folds, the status bar wraps, nothing off screen',
    app: businessApp,
    screens: BUSINESS_SCREENS,
    sizes: ZOOMED,
    more: invoiceViewFits,
    timeouts: 4,
  },
  {
    title:
      'partner screens at 1280×800 and 1024×700, light and dark: the referred businesses’ actions in view',
    app: partnerApp,
    screens: PARTNER_SCREENS,
    sizes: SIZES,
    timeouts: 3,
  },
  {
    title: 'every partner screen at 200 % zoom (640×400), light and dark',
    app: partnerApp,
    screens: PARTNER_SCREENS,
    sizes: ZOOMED,
    timeouts: 3,
  },
]

describeE2E('screens fit a laptop', (t) => {
  for (const look of LOOKS)
    it(
      look.title,
      async () => {
        const app = await look.app(t)
        const problems = await everyLook(t, app.host.url, look.screens, look.sizes)
        expect(problems).toEqual([])
        await look.more?.(t, app.host.url)
      },
      E2E_TIMEOUT * look.timeouts,
    )
})
