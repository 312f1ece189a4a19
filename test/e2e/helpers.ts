/**
 * End-to-end helpers: the real renderer in Debian's Chromium (playwright-core), against the web host
 * started in this process, and the emulator where a test needs its own fixtures.
 *
 * This module imports nothing from vitest, so `npm run bench` (scripts/bench/renderer.ts) uses the
 * same launch, app and seeding code. The vitest glue (hooks, skipping) is in ./suite.ts.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import type * as Axe from 'axe-core'
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core'
import {
  type FaultsInput,
  type Fixtures,
  type Sandbox,
  type SandboxVariant,
  startSandbox,
} from '../../sandbox'
import type { AppServiceOptions } from '../../src-main/core/app-service'
import { MemorySecretStore, type Profile, ProfileManager } from '../../src-main/core/secrets'
import { type WebHost, startWebHost } from '../../src-main/web-host'

export const ROOT = resolve(import.meta.dirname, '..', '..')
export const RESULTS_DIR = join(ROOT, 'test-results')

// ---------------------------------------------------------------------------------------------
// Chromium
// ---------------------------------------------------------------------------------------------

export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Chromium's own features the tests and the bench turn off, besides Playwright's. Chromium 156 draws
 * its address bar's popup as a WebUI page (WebUIOmniboxPopup, WebUIOmniboxAimPopup) and loads it in
 * a renderer of its own for every new window, i.e. for every new context here: about 0.7 s of CPU
 * on a 2-core machine, while the page a test or the bench is timing loads (seen in a trace of the
 * Review bench: that renderer busy 745 ms during one cold load). The app never has an address bar
 * (Electron's window has none). Puppeteer turns both off by default too
 * (puppeteer/puppeteer#15278).
 */
export const CHROMIUM_OFF_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']

/**
 * The features Playwright turns off (its `disabledFeatures`, not exported: read from its bundle).
 * Chromium keeps only the last `--disable-features` switch, so ours must carry these too, or they
 * would all be on again. A Playwright that lists them differently fails here, loudly.
 */
function playwrightOffFeatures(): string[] {
  const bundle = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib', 'coreBundle.js')
  const code = existsSync(bundle) ? readFileSync(bundle, 'utf8') : ''
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(code)?.[1] ?? ''
  // Its entries are string literals, its comments whole lines or line ends.
  const names = [...list.replace(/\/\/[^\n]*/g, '').matchAll(/"(\w+)"/g)].map((m) => m[1]!)
  if (names.length < 5) {
    throw new Error(
      `test/e2e/helpers.ts: no list of disabled features found in ${bundle}; see how this playwright-core passes --disable-features and update playwrightOffFeatures`,
    )
  }
  return names
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  `--disable-features=${[...playwrightOffFeatures(), ...CHROMIUM_OFF_FEATURES].join(',')}`,
]

/**
 * Why the end-to-end tests skip themselves, or null when they run. They skip only when Chromium is
 * missing outside CI; in CI (CI=true) they run, and fail loudly if Chromium is missing.
 */
export const E2E_SKIP_REASON: string | null =
  !existsSync(CHROMIUM_PATH) && process.env.CI !== 'true'
    ? `${CHROMIUM_PATH} is missing (sudo apt-get install -y chromium); CI=true runs these tests anyway`
    : null

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
}

// ---------------------------------------------------------------------------------------------
// The renderer build
// ---------------------------------------------------------------------------------------------

const RENDERER_INDEX = join(ROOT, 'out', 'renderer', 'index.html')
/** What the renderer bundle is built from. */
// contract/ too: the renderer imports it (and its language catalogues, contract/i18n).
const RENDERER_SOURCES = ['src-renderer', 'src-preload', 'schemas', 'contract'].map((d) => join(ROOT, d))
const BUILD_LOCK = join(
  tmpdir(),
  `bookdrop-renderer-build-${createHash('sha1').update(ROOT).digest('hex').slice(0, 12)}`,
)

function newestMtime(dir: string): number {
  let newest = 0
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p))
    else if (e.isFile()) newest = Math.max(newest, statSync(p).mtimeMs)
  }
  return newest
}

/** 'missing' (never built), 'stale' (a source file is newer than the build) or 'fresh'. */
export function rendererState(): 'missing' | 'stale' | 'fresh' {
  if (!existsSync(RENDERER_INDEX)) return 'missing'
  const built = statSync(RENDERER_INDEX).mtimeMs
  return RENDERER_SOURCES.some((d) => existsSync(d) && newestMtime(d) > built) ? 'stale' : 'fresh'
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Builds out/ with `electron-vite build` when the renderer is missing, or older than its sources (so
 * the tests never drive yesterday's screens). One build at a time across test processes (a lock dir).
 */
export async function ensureRenderer(log: (line: string) => void = (l) => console.warn(l)): Promise<void> {
  const until = Date.now() + 180_000
  for (;;) {
    const state = rendererState()
    if (state === 'fresh') return
    try {
      mkdirSync(BUILD_LOCK)
    } catch {
      // Another process is building: wait for it (a lock older than 3 minutes is a crashed build).
      const age = Date.now() - (statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 180_000) rmSync(BUILD_LOCK, { recursive: true, force: true })
      if (Date.now() > until) throw new Error(`timed out waiting for another renderer build (${BUILD_LOCK})`)
      await sleep(250)
      continue
    }
    try {
      if (rendererState() === 'fresh') return
      log(`e2e: the renderer is ${state}: building it (electron-vite build)…`)
      const bin = join(ROOT, 'node_modules', '.bin', 'electron-vite')
      const r = spawnSync(bin, ['build'], { cwd: ROOT, encoding: 'utf8' })
      if (r.status !== 0 || !existsSync(RENDERER_INDEX)) {
        throw new Error(`electron-vite build failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
      }
      return
    } finally {
      rmSync(BUILD_LOCK, { recursive: true, force: true })
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Pages: a fresh context each, with axe reachable under the page's CSP
// ---------------------------------------------------------------------------------------------

const AXE_PATH = join(ROOT, 'node_modules', 'axe-core', 'axe.min.js')
/**
 * The pages carry the app's real CSP (`script-src 'self'`), which blocks the inline script that
 * `addScriptTag({ path })` would add. Instead of switching CSP off for the whole test (bypassCSP),
 * the browser context serves axe.min.js at this same-origin path and axe is added from there.
 */
const AXE_URL_PATH = '/__e2e__/axe.min.js'

/** What a browser context has stored (cookies, localStorage), to start another one from. */
export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>

export interface OpenedPage {
  context: BrowserContext
  page: Page
  /** Uncaught page errors and CSP violations: a test fails if any appear. */
  problems: string[]
  /** Every console error, for the failure report. */
  consoleErrors: string[]
}

export async function openPage(
  browser: Browser,
  opts: {
    colorScheme?: 'light' | 'dark'
    viewport?: { width: number; height: number }
    /**
     * Serve axe-core to the page (checkA11y). Default true. The bench turns it off: a route makes
     * Playwright hold every request of the context for a round trip to this process.
     */
    a11y?: boolean
    /** Start from this storage (cookies, localStorage), e.g. a window reopened by the same person. */
    storageState?: StorageState
    /** The person's language and region (navigator.language, Intl's default); en-US by default. */
    locale?: string
    /** A phone: mobile emulation (its viewport, touch, user agent), e.g. the phone's page (issue 25). */
    device?: { isMobile: boolean; hasTouch: boolean; userAgent: string; deviceScaleFactor: number }
  } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    locale: opts.locale ?? 'en-US',
    timezoneId: 'UTC',
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    colorScheme: opts.colorScheme ?? 'light',
    ...(opts.storageState ? { storageState: opts.storageState } : {}),
    ...(opts.device ?? {}),
  })
  context.setDefaultTimeout(20_000)
  // tsx (esbuild keepNames) wraps named functions in __name(): functions this code passes to
  // page.evaluate must find it in the page too.
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn' })
  if (opts.a11y ?? true) {
    await context.route(`**${AXE_URL_PATH}`, (route) =>
      route.fulfill({ path: AXE_PATH, contentType: 'text/javascript; charset=utf-8' }),
    )
  }
  const page = await context.newPage()
  const problems: string[] = []
  const consoleErrors: string[] = []
  page.on('pageerror', (e) => problems.push(`uncaught error in the page: ${e.message}`))
  page.on('console', (m) => {
    if (m.type() !== 'error') return
    consoleErrors.push(m.text())
    if (/Content Security Policy/i.test(m.text())) problems.push(`CSP violation: ${m.text()}`)
  })
  return { context, page, problems, consoleErrors }
}

export interface A11yViolation {
  id: string
  impact: string | null
  help: string
  helpUrl: string
  nodes: { target: string; summary: string }[]
}

export function formatViolations(where: string, violations: A11yViolation[]): string {
  const lines = [`axe: ${violations.length} serious or critical violation(s) on ${where}:`]
  for (const v of violations) {
    lines.push(`  [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})`)
    for (const n of v.nodes.slice(0, 8)) {
      lines.push(`    - ${n.target}`)
      if (n.summary) lines.push(`      ${n.summary.replace(/\n/g, '\n      ')}`)
    }
    if (v.nodes.length > 8) lines.push(`    … and ${v.nodes.length - 8} more`)
  }
  return lines.join('\n')
}

/**
 * Runs axe-core on the whole page and throws a readable report when any violation is serious or
 * critical. Returns the milder ones.
 */
export async function checkA11y(page: Page, where: string): Promise<A11yViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window)
  if (!loaded) await page.addScriptTag({ url: AXE_URL_PATH })
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof Axe }).axe
    const r = await axe.run(document, { resultTypes: ['violations'] })
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }))
  })
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  if (bad.length) throw new Error(formatViolations(where, bad))
  return violations
}

/**
 * The status bar is "always visible": its parts must not overlap or spill out of their boxes (a
 * long message may shorten with an ellipsis), and each of its controls and live parts ("Pause
 * uploads", "need attention", the connection state) lies whole inside the bar and the window. The
 * bar may wrap onto more lines on a narrow window: parts on different lines do not overlap.
 * Returns what is wrong, or [] when it reads well.
 */
export async function statusBarProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('footer.statusbar')
    if (!bar) return ['no status bar']
    const items = [...bar.children] as HTMLElement[]
    const out: string[] = []
    const name = (el: HTMLElement) => JSON.stringify((el.textContent ?? '').trim().slice(0, 40))
    for (const [i, el] of items.entries()) {
      // Content clipped on purpose (overflow hidden, with an ellipsis) is not spilling.
      const clips = getComputedStyle(el).overflowX !== 'visible'
      if (!clips && el.scrollWidth > el.clientWidth + 1)
        out.push(`${name(el)} spills out of its box (${el.scrollWidth}px of content in ${el.clientWidth}px)`)
      const a = el.getBoundingClientRect()
      for (const next of items.slice(i + 1)) {
        const b = next.getBoundingClientRect()
        const sameLine = a.top < b.bottom - 1 && b.top < a.bottom - 1
        if (sameLine && a.left < b.right - 1 && b.left < a.right - 1)
          out.push(`${name(el)} overlaps ${name(next)}`)
      }
    }
    const barRect = bar.getBoundingClientRect()
    const vw = document.documentElement.clientWidth
    const vh = window.innerHeight
    for (const el of bar.querySelectorAll<HTMLElement>('[aria-live], button')) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) {
        if (el.tagName === 'BUTTON') out.push(`${name(el)} is not shown`)
        continue
      }
      if (r.right > barRect.right + 1 || r.right > vw + 1)
        out.push(`${name(el)} is cut off at the right edge`)
      if (r.bottom > barRect.bottom + 1 || r.bottom > vh + 1) out.push(`${name(el)} is cut off at the bottom`)
    }
    return out
  })
}

/**
 * Text cut on the current screen (issue 26): money, dates and counts (cells of numbers, dates, and
 * columns sized to their content) are never cut; any other text cut with an ellipsis has its whole
 * value on hover (a title) and can be reached with the keyboard (it, or its row, takes focus).
 * Returns plain descriptions, [] when nothing is hidden.
 */
export async function cutProblems(page: Page): Promise<string[]> {
  // A cut text becomes a tab stop when its ResizeObserver reports (in the next frame's rendering
  // steps, after its rAF callbacks): look once two frames have passed, as a person's Tab would.
  await page.evaluate(
    () => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))),
  )
  return page.evaluate(() => {
    const out: string[] = []
    const words = (el: Element) => (el.textContent ?? '').trim().replace(/\s+/g, ' ')
    const shown = (el: Element) =>
      el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
    const cut = (el: HTMLElement) => el.scrollWidth > el.clientWidth + 1
    const whole = new Set<HTMLElement>()
    for (const el of document.querySelectorAll<HTMLElement>(
      'main td.num, main td.fit, main .facts__money dd',
    ))
      whole.add(el)
    for (const t of document.querySelectorAll<HTMLElement>('main time')) {
      const cell = t.closest<HTMLElement>('td, [role="cell"], dd')
      whole.add(cell ?? t)
    }
    for (const el of whole) {
      if (shown(el) && cut(el))
        out.push(`"${words(el).slice(0, 60)}" is cut (${el.scrollWidth}px of it in ${el.clientWidth}px)`)
    }
    for (const el of document.querySelectorAll<HTMLElement>('main *')) {
      if (!shown(el) || whole.has(el) || getComputedStyle(el).textOverflow !== 'ellipsis' || !cut(el))
        continue
      // A cell holding cut-able parts (a truncating span) is not itself what is cut.
      if (el.querySelector('.truncate, .ellipsis, .cut') && !el.matches('.truncate, .ellipsis, .cut'))
        continue
      const text = words(el)
      if (!text) continue
      const titled = el.closest('[title]')?.getAttribute('title') ?? ''
      if (!titled.includes(text.slice(0, 24)))
        out.push(`"${text.slice(0, 60)}" is cut and its whole text is not on hover`)
      const focusable = el.closest<HTMLElement>('[tabindex], a[href], button, [role="row"]')
      if (!focusable || (focusable.tabIndex < 0 && focusable.getAttribute('role') !== 'row'))
        out.push(`"${text.slice(0, 60)}" is cut and cannot be reached with the keyboard`)
    }
    return [...new Set(out)].slice(0, 30)
  })
}

export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'screenshot'
  )
}

/** A full-page screenshot at test-results/<name>.png; returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true })
  const path = join(RESULTS_DIR, `${slug(name)}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

// ---------------------------------------------------------------------------------------------
// The app: web host (in this process), own emulator, profiles made before it starts
// ---------------------------------------------------------------------------------------------

/** Short engine timings, as the app tests use. */
export const E2E_ENGINE: AppServiceOptions['engine'] = {
  queue: { retry: { baseMs: 50, capMs: 500 }, poll: { firstMs: 40, maxMs: 250, factor: 1.5 } },
  watch: { stabilityMs: 150, rescanIntervalMs: 60_000 },
}

export interface ProfileSpec {
  name: string
  kind: 'business' | 'partner'
  key: string
}

/**
 * A world of one business (`name` Ltd, NGN, Nigeria) whose jobs end after `jobDelayMs`, with a rate
 * limit no test reaches, and its profile `name`.
 */
export function oneBusiness(
  uuid: string,
  name: string,
  key: string,
  jobDelayMs: number,
): { fixtures: Fixtures; profiles: ProfileSpec[] } {
  return {
    fixtures: {
      businesses: [{ uuid, name: `${name} Ltd`, key, currency: 'NGN', country: 'NG' }],
      rate_limit: { limit: 100_000, window_seconds: 60 },
      job_delay_ms: jobDelayMs,
    },
    profiles: [{ name, kind: 'business', key }],
  }
}

export interface AppOptions {
  /** Starts an emulator of our own with these fixtures. */
  fixtures?: Fixtures
  faults?: FaultsInput
  /** The answer shapes of that emulator (sandbox/variants.ts); default: our full ones. */
  variant?: SandboxVariant
  /** Profiles created (and validated against our emulator) before the host starts; the first is active. */
  profiles?: ProfileSpec[]
  /** Runs before the host starts, with the data dir and the profiles (e.g. to seed bookdrop.db). */
  seed?: (dataDir: string, profiles: Profile[]) => void | Promise<void>
  /** false: with no profile, open on the first-run screen instead of the demo. */
  autoDemo?: boolean
  engine?: AppServiceOptions['engine']
  /** "Add from phone" listens on this address (the web host's --phone-listen), e.g. 127.0.0.1. */
  phoneListen?: string
}

export interface RunningApp {
  host: WebHost
  /** Our own emulator, when fixtures were given. */
  sb: Sandbox | null
  dir: string
  dataDir: string
  profiles: Profile[]
  stop(): Promise<void>
}

export async function startApp(opts: AppOptions = {}): Promise<RunningApp> {
  const dir = await mkdtemp(join(tmpdir(), 'bookdrop-e2e-'))
  const dataDir = join(dir, 'data')
  let sb: Sandbox | null = null
  let host: WebHost | null = null
  const profiles: Profile[] = []
  try {
    sb = opts.fixtures
      ? await startSandbox({ fixtures: opts.fixtures, port: 0, faults: opts.faults, variant: opts.variant })
      : null
    const store = new MemorySecretStore()
    if (opts.profiles?.length) {
      if (!sb) throw new Error('profiles need fixtures (they are validated against our emulator)')
      const manager = await ProfileManager.open({ dataDir, store })
      for (const p of opts.profiles) {
        profiles.push(
          await manager.add({
            name: p.name,
            kind: p.kind,
            environment: 'custom',
            baseUrl: sb.url,
            secret: p.key,
          }),
        )
      }
      await manager.setActive(profiles[0]!.id)
    }
    await opts.seed?.(dataDir, profiles)
    host = await startWebHost({
      port: 0,
      dataDir,
      secretStore: store,
      engine: opts.engine ?? E2E_ENGINE,
      autoDemo: opts.autoDemo,
      phoneListen: opts.phoneListen,
    })
  } catch (e) {
    await sb?.stop()
    await rm(dir, { recursive: true, force: true })
    throw e
  }
  const h = host
  const s = sb
  let stopping: Promise<void> | null = null
  return {
    host: h,
    sb: s,
    dir,
    dataDir,
    profiles,
    stop() {
      stopping ??= (async () => {
        await h.stop()
        await s?.stop()
        await rm(dir, { recursive: true, force: true })
      })()
      return stopping
    },
  }
}

/** POST to an emulator control route (/_sandbox/…); returns `data`. */
export async function sandboxControl<T = unknown>(sb: Sandbox, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${sb.origin}/_sandbox/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as { data: T }
  if (!res.ok) throw new Error(`/_sandbox/${path} answered ${res.status}: ${JSON.stringify(json)}`)
  return json.data
}

/** The emulator's creates log (GET /_sandbox/creates). */
export async function sandboxCreates(
  sb: Sandbox,
  route?: string,
): Promise<{ route: string; uuid: string; attachments: { name: string; sha256: string }[] }[]> {
  const q = route ? `?route=${encodeURIComponent(route)}` : ''
  const res = await fetch(`${sb.origin}/_sandbox/creates${q}`)
  return ((await res.json()) as { data: never[] }).data
}

/** A receipt's text, different on every call (so no two files are duplicates). */
export function receiptText(label: string): string {
  const amount = 1000 + Math.floor(Math.random() * 9000)
  return `Receipt ${label}\nVendor: Flour Mills\nDate: 2026-01-15\nTotal: NGN ${amount}.00\nref ${Math.random()}\n`
}

export { seedHistory, type SeededRow } from './seed-history'

/**
 * What does not fit the window: the page or a table scrolling sideways, and any row action (a
 * button or link in a table row) that lies outside the viewport or is hidden. Returns plain
 * descriptions, [] when everything fits.
 */
export async function fitProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const vw = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > vw + 1)
      out.push(`the page scrolls sideways (${document.documentElement.scrollWidth}px wide in ${vw}px)`)
    const label = (el: Element) =>
      (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 50)
    for (const el of document.querySelectorAll<HTMLElement>('main *')) {
      const s = getComputedStyle(el)
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
        out.push(
          `${el.tagName.toLowerCase()}.${el.className || '?'} scrolls sideways (${el.scrollWidth}px in ${el.clientWidth}px)`,
        )
    }
    const rows = document.querySelectorAll('main tbody tr, main [role="row"]:not(.vtable__row--head)')
    for (const row of rows) {
      const rr = row.getBoundingClientRect()
      if (rr.bottom < 0 || rr.top > window.innerHeight) continue // scrolled away vertically: fine
      for (const a of row.querySelectorAll<HTMLElement>('button, a[href]')) {
        const r = a.getBoundingClientRect()
        const hidden = r.width === 0 || r.height === 0 || getComputedStyle(a).visibility === 'hidden'
        if (hidden) continue // a control not shown at this width (it lives in a row menu)
        if (r.right > vw + 1 || r.left < -1)
          out.push(
            `row action "${label(a)}" is outside the window (${Math.round(r.left)}–${Math.round(r.right)} of ${vw}px)`,
          )
        // Clipped by a cell or a table that hides its overflow.
        let p: HTMLElement | null = a.parentElement
        while (p && p !== row.parentElement) {
          const pr = p.getBoundingClientRect()
          const ps = getComputedStyle(p)
          if (ps.overflowX !== 'visible' && (r.right > pr.right + 1 || r.left < pr.left - 1)) {
            out.push(`row action "${label(a)}" is cut off by its cell`)
            break
          }
          p = p.parentElement
        }
      }
    }
    // A grid row (the history) keeps each row on one line, its cells under their headers.
    for (const table of document.querySelectorAll<HTMLElement>('main [role="table"]')) {
      const visible = (el: Element) =>
        (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().width > 0
      const heads = [...table.querySelectorAll('[role="columnheader"]')].filter(visible)
      const headRow = table.querySelector('[role="columnheader"]')?.parentElement?.getBoundingClientRect()
      if (headRow && heads.some((h) => h.getBoundingClientRect().bottom > headRow.bottom + 1))
        out.push(`the header of ${table.getAttribute('aria-label')} wraps`)
      for (const row of table.querySelectorAll(
        '[role="row"]:not(.vtable__row--head):not(.vtable__row--loading)',
      )) {
        const cells = [...row.querySelectorAll(':scope > [role="cell"]')].filter(visible)
        const rr = row.getBoundingClientRect()
        const outside = cells.filter((c) => {
          const r = c.getBoundingClientRect()
          return r.top < rr.top - 1 || r.bottom > rr.bottom + 1
        })
        if (outside.length)
          out.push(
            `a row of ${table.getAttribute('aria-label')} wraps: ${outside.length} cell(s) fall outside it`,
          )
        if (cells.length !== heads.length)
          out.push(
            `a row of ${table.getAttribute('aria-label')} shows ${cells.length} cells under ${heads.length} headers`,
          )
        cells.forEach((c, i) => {
          const h = heads[i]
          if (h && Math.abs(c.getBoundingClientRect().left - h.getBoundingClientRect().left) > 1)
            out.push(`${table.getAttribute('aria-label')}: a cell is not under its header "${h.textContent}"`)
        })
      }
    }
    return [...new Set(out)].slice(0, 30)
  })
}
