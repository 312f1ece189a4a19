/**
 * Phone and photo figures for `npm run bench` (issue 25):
 *
 *  a. a 12-megapixel JPEG (about 4 MB, turned by EXIF, with GPS) prepared: the time of
 *     PhotoPreparer.prepare (read, the images worker's decode, orientation, scaling and encoding,
 *     the prepared file written), median of 10 after a warm-up, and the size it is sent at;
 *  b. the phone page's first load: the JavaScript (and everything) the phone listener serves for
 *     it, gzipped as a browser would receive it compressed;
 *  c. photo chosen → row in the history, on loopback: the phone's page in Chromium (a second
 *     context, mobile emulation) paired with the web host's phone listener on 127.0.0.1; from the
 *     camera input's `change` event in the page (the page reports it through exposeBinding, so
 *     Playwright's own transfer of the file is not counted; the files are given by path) until the
 *     engine's `upload` event of its new row (what the history lists), median of 10 different
 *     12-megapixel photos sent one after another.
 *
 * Run alone with `npx tsx scripts/bench/phone.ts`; run.ts adds --json (the rows as one last line).
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { loadPhonePage } from '../../src-main/core/phone/page'
import { PHOTO_DEFAULTS, PhotoPreparer } from '../../src-main/core/prepare/preparer'
import { buildRenderer, rendererBuilt } from '../../src-main/web-host'
import { CHROMIUM_PATH, launchChromium, openPage, startApp } from '../../test/e2e/helpers'
import { twelveMegapixelPhoto } from '../../test/prepare/photos'
import { type BenchRow, KB, median, runAlone } from './rows'

const ROOT = resolve(import.meta.dirname, '../..')
const KEY = 'svc_sk_bench_phone_0001'
const log = (line: string) => console.error(`phone bench: ${line}`)

async function prepareRows(): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'bookdrop-bench-photo-'))
  const photos = new PhotoPreparer(join(dir, 'data'), () => PHOTO_DEFAULTS)
  try {
    const photo = await twelveMegapixelPhoto()
    const path = join(dir, 'IMG_0001.jpg')
    await writeFile(path, photo)
    await photos.prepareRead(await readFile(path), 'IMG_0001.jpg') // the worker started and warm
    const times: number[] = []
    let size = 0
    for (let i = 0; i < 10; i++) {
      const t = performance.now()
      const p = await photos.prepareRead(await readFile(path), 'IMG_0001.jpg')
      times.push(performance.now() - t)
      if (p.kind !== 'prepared') throw new Error(`not prepared: ${JSON.stringify(p)}`)
      size = p.size
    }
    const p50 = median(times)
    return [
      {
        what: `12-megapixel JPEG (${(photo.length / 1024 / 1024).toFixed(1)} MB) prepared, median of 10`,
        figure: `${p50.toFixed(0)} ms`,
        target: '< 300 ms',
        ok: p50 < 300,
      },
      { what: '  slowest', figure: `${Math.max(...times).toFixed(0)} ms`, target: '', ok: null },
      { what: '  sent as (2400 px, quality 80)', figure: `${Math.round(size / KB)} KB`, target: '< 800 KB', ok: size < 800 * KB },
    ]
  } finally {
    await photos.close()
    await rm(dir, { recursive: true, force: true })
  }
}

async function pageRows(): Promise<BenchRow[]> {
  const page = await loadPhonePage(join(ROOT, 'out', 'renderer'))
  let js = 0
  let all = gzipSync(page.html).length
  for (const [path, a] of page.assets) {
    const gz = gzipSync(a.body).length
    all += gz
    if (path.endsWith('.js')) js += gz
  }
  return [
    { what: 'phone page first load: JavaScript, gzipped', figure: `${(js / KB).toFixed(1)} KB`, target: '< 100 KB', ok: js < 100 * KB },
    { what: '  the whole page (HTML, CSS, JavaScript), gzipped', figure: `${(all / KB).toFixed(1)} KB`, target: '', ok: null },
  ]
}

async function chosenToRowRows(): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM_PATH)) return [{ what: 'photo chosen → history row: no Chromium', figure: '—', target: '', ok: null }]
  const app = await startApp({
    fixtures: {
      businesses: [{ uuid: 'b-bench', name: 'Bench Foods', key: KEY, currency: 'NGN', country: 'NG' }],
      rate_limit: { limit: 100_000, window_seconds: 60 },
      job_delay_ms: 50,
    },
    profiles: [{ name: 'Bench Foods', kind: 'business', key: KEY }],
    phoneListen: '127.0.0.1',
  })
  const browser = await launchChromium()
  try {
    const arrived = new Map<string, number>()
    app.host.service.onEvent((name, payload) => {
      if (name !== 'upload') return
      const e = payload as { upload: { name: string }; previous: unknown }
      if (e.previous === null && !arrived.has(e.upload.name)) arrived.set(e.upload.name, Date.now())
    })
    const opened = await app.host.service.openPhone({})
    const { page, context } = await openPage(browser, {
      a11y: false,
      viewport: { width: 390, height: 844 },
      device: { isMobile: true, hasTouch: true, deviceScaleFactor: 3, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1' },
    })
    const chosen = new Map<string, number>()
    await context.exposeBinding('benchChosen', (_src, name: string, at: number) => void chosen.set(name, at))
    await context.addInitScript({
      content: `document.addEventListener('change', (e) => {
        const input = e.target
        if (input && input.id === 'camera') for (const f of input.files ?? []) globalThis.benchChosen(f.name, Date.now())
      }, true)`,
    })
    await page.goto(opened.link!.url)
    for (let i = 0; i < 100 && (await app.host.service.getPhone({})).pending.length === 0; i++) await new Promise((r) => setTimeout(r, 50))
    const [pending] = (await app.host.service.getPhone({})).pending
    await app.host.service.decidePhone({ id: pending!.id, allow: true })
    await page.locator('#send').waitFor()
    log('making 10 photos of 12 megapixels…')
    const files: string[] = []
    for (let i = 0; i < 10; i++) {
      const path = join(app.dir, `IMG_${1000 + i}.jpg`)
      await writeFile(path, await twelveMegapixelPhoto(i + 1))
      files.push(path)
    }
    const times: number[] = []
    for (const path of files) {
      const name = basename(path)
      await page.setInputFiles('#camera', path)
      for (let k = 0; k < 1000 && !arrived.has(name); k++) await new Promise((r) => setTimeout(r, 5))
      const at = arrived.get(name)
      const from = chosen.get(name)
      if (at === undefined || from === undefined) throw new Error(`${name} never reached the history`)
      times.push(at - from)
    }
    const p50 = median(times)
    return [
      {
        what: 'phone: 12-megapixel photo chosen → row in the history (loopback), median of 10',
        figure: `${p50.toFixed(0)} ms`,
        target: '< 1 s',
        ok: p50 < 1000,
      },
      { what: '  slowest', figure: `${Math.max(...times).toFixed(0)} ms`, target: '', ok: null },
    ]
  } finally {
    await browser.close()
    await app.stop()
  }
}

export async function phoneBench(): Promise<BenchRow[]> {
  const rows: BenchRow[] = []
  log('preparing a 12-megapixel photo…')
  rows.push(...(await prepareRows()))
  // The web host serves only a renderer built from the current sources (out/ and the phone's page).
  if (!rendererBuilt()) {
    log('building out/ (electron-vite build)…')
    if (!buildRenderer()) throw new Error('electron-vite build failed')
  }
  rows.push(...(await pageRows()))
  log('sending photos from the phone page in Chromium…')
  rows.push(...(await chosenToRowRows()))
  return rows
}

runAlone('phone.ts', phoneBench)
